"""What runs in a build worker, one module per job: the stages name these (their WORKER), and a task's
cache key covers its worker module's import closure, so this file imports nothing."""
