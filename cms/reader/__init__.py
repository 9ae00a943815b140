"""The reference reader: a plain HTML/CSS/JS front end that reads only the public and preview APIs."""
