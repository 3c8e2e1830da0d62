"""The edit loop and developer commands: serve (make serve), frame (make frame), scaffold (make new),
bench (make bench), deploy_check (make deploy-check)."""
