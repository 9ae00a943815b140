"""The reference reader: plain HTML, CSS and JS that read only the public and preview APIs."""
