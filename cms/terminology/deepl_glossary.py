"""Our glossary as a DeepL glossary, for DeepL to apply itself (`DEEPL_GLOSSARY_ID`).

DeepL glossaries cannot be edited: each push creates a new one (v2 `POST /glossaries`, TSV
entries), whose id goes into the settings. DeepL's own glossary matching takes care of case and
inflection; our forbidden variants have no place there and are left to the terminology check.
"""

import requests
from django.conf import settings

from .models import GlossaryTerm

GLOSSARY_NAME = "Research digests EN-ZH"


def tsv_entries(terms) -> str:
    """One "English<TAB>Chinese" line per term; tabs and newlines are not allowed in entries."""
    return "\n".join(
        f"{' '.join(term.english.split())}\t{' '.join(term.chinese.split())}" for term in terms
    )


def push_glossary(auth_key: str | None = None, timeout: float = 30) -> dict:
    """Create the DeepL glossary from every term; returns DeepL's answer (glossary_id, ...)."""
    auth_key = auth_key or settings.DEEPL_AUTH_KEY
    if not auth_key:
        raise ValueError("DEEPL_AUTH_KEY is not set: there is no DeepL account to push to.")
    # The free API for keys ending ":fx", as wagtail-localize's DeepLTranslator decides.
    host = "api-free.deepl.com" if auth_key.endswith(":fx") else "api.deepl.com"
    response = requests.post(
        f"https://{host}/v2/glossaries",
        data={
            "name": GLOSSARY_NAME,
            "source_lang": "en",
            "target_lang": "zh",
            "entries": tsv_entries(GlossaryTerm.objects.order_by("english")),
            "entries_format": "tsv",
        },
        headers={"Authorization": f"DeepL-Auth-Key {auth_key}"},
        timeout=timeout,
    )
    response.raise_for_status()
    return response.json()
