"""The terminology tests run on the translation tests' roles, locales and pages."""

from tests.translation.conftest import (  # noqa: F401 (fixtures)
    digest_en,
    digest_zh,
    editor,
    en_locale,
    new_digest,
    roles,
    start_translation,
    translator,
    zh_locale,
)
