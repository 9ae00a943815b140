"""Substring search over a denormalised, casefolded text column, in any language.

Wagtail's database search backend tokenises on spaces and punctuation, so a Chinese term such as
壅塞 inside running text ("解釋壅塞控制…") is never a token of its own and is not found. Instead
each searchable page keeps `search_text` - its title, short name and summary, casefolded - written
on every save of those fields, and a search is a substring match on that column: exact for every
script, with no segmenter to install. On PostgreSQL, GIN indexes created by vendor-conditional
migrations serve `LIKE '%term%'`: pg_trgm's for terms of three or more characters, and for
two-character terms (most Chinese words, which trigrams cannot serve) one on the text's set of
character pairs (`digests_bigrams`, migration 0005; pg_bigm would do this but is not packaged for
PostgreSQL here). One-character terms and SQLite scan the column, which stays well inside the
budget at thousands of pages per language because the column holds only the short fields.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.fields.array import ArrayContains
from django.db import connection, models
from django.db.models import F, Func, Q

from cms.api.search import normalise

SEARCH_TEXT_SEPARATOR = "\n"


def build_search_text(values: Iterable[object]) -> str:
    """Join the searchable values of one page, one per line so terms never span two fields."""
    return SEARCH_TEXT_SEPARATOR.join(normalise(str(value)) for value in values if value)


BIGRAMS_FUNCTION = "digests_bigrams"


def search_text_condition(terms: list[str], *, operator: str = "and") -> Q:
    """A filter matching rows whose search_text holds every term (or any, with operator "or")."""
    condition = Q()
    for term in terms:
        term_condition = Q(search_text__contains=term)
        if len(term) == 2 and connection.vendor == "postgresql":
            term_condition &= Q(_holds_pair(term))
        condition = condition | term_condition if operator == "or" else condition & term_condition
    return condition


def _holds_pair(term: str) -> ArrayContains:
    """`digests_bigrams(search_text) @> ARRAY[term]`: the same rows as LIKE '%term%' for a
    two-character term, in the form the character-pair index serves."""
    pairs = Func(
        F("search_text"),
        function=BIGRAMS_FUNCTION,
        output_field=ArrayField(models.TextField()),
    )
    return ArrayContains(pairs, [term])


class SearchTextMixin(models.Model):
    """Keeps `search_text` in step with the fields named in `search_text_fields` on every save."""

    search_text_fields: tuple[str, ...] = ("title",)

    search_text = models.TextField(editable=False, blank=True, default="")

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        update_fields = kwargs.get("update_fields")
        if update_fields is None:
            self.search_text = self.compute_search_text()
        elif set(update_fields) & set(self.search_text_fields):
            self.search_text = self.compute_search_text()
            kwargs["update_fields"] = {*update_fields, "search_text"}
        return super().save(*args, **kwargs)

    def compute_search_text(self) -> str:
        return build_search_text(getattr(self, name) for name in self.search_text_fields)
