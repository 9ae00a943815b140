"""What a search query is: its length and term limits, and its terms as the stored text has them.

Every endpoint's search (pages, papers, media) and the admin's paper search read a query alike.
"""

MAX_SEARCH_LENGTH = 200
MAX_SEARCH_TERMS = 10


def normalise(text: str) -> str:
    """The form both the stored text and the query take: casefolded, spaces collapsed."""
    return " ".join(text.casefold().split())


def search_terms(query: str) -> list[str]:
    """The query's whitespace-separated terms, normalised; duplicates dropped, order kept."""
    return list(dict.fromkeys(normalise(query).split()))
