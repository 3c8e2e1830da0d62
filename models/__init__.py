"""Pure numerical models: numpy only, SI units, no Manim, matplotlib or MkDocs."""
