"""How far each translation is: segment counts, review, tool names, and the API's field."""
