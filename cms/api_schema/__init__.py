"""The OpenAPI description of the public API, shipped as a file and served."""
