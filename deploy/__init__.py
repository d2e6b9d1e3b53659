"""Serving the app: `python -m deploy.serve` (make serve), and container examples."""
