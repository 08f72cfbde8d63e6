"""The run inspector's static page, stylesheet and scripts, served at ``/ui`` (no build step)."""
