"""The glossary as CSV or TBX, out and back in.

CSV columns: english, chinese, note, case_sensitive (true/false), forbidden_variants (separated
by "|"); the shipped glossary_seed.csv is in this format.

TBX is written and read by hand with ElementTree, in the TBX-Basic shape (ISO 30042 `martif`):
one `termEntry` per term, an English `langSet` and a zh-Hant one, the Chinese term
`preferredTerm-admn-sts` and each forbidden variant `deprecatedTerm-admn-sts`, the note as
`note`, the case rule as a `termNote` of type `x-caseSensitive`. The maintained TBX readers in
Python come with a whole localisation toolkit (translate-toolkit) for the dozen elements we use.
Uploads are parsed with defusedxml, so an entity bomb or external entity is refused. TBX v3
files (`tbx`, `conceptEntry`, `langSec`, `termSec`, as Weblate and others export) are read too.

An import validates every row before it writes any, and names the row and what is wrong; then
it adds new terms and updates existing ones (matched by English term); it deletes nothing.
"""

import csv
import io
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from defusedxml import ElementTree as SafeET
from django.db import transaction
from django.utils.translation import gettext as _

from .models import GlossaryTerm

CSV_FIELDS = ["english", "chinese", "note", "case_sensitive", "forbidden_variants"]
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
PREFERRED = "preferredTerm-admn-sts"
DEPRECATED = "deprecatedTerm-admn-sts"
TARGET_LANG = "zh-Hant"


class GlossaryImportError(ValueError):
    """The file could not be read as a glossary; nothing was written."""


@dataclass
class TermRow:
    english: str
    chinese: str
    note: str = ""
    case_sensitive: bool = False
    forbidden: tuple[str, ...] = ()


def rows_of(terms) -> list[TermRow]:
    return [
        TermRow(t.english, t.chinese, t.note, t.case_sensitive, tuple(t.forbidden)) for t in terms
    ]


def export_csv(terms) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for row in rows_of(terms):
        writer.writerow(
            [
                row.english,
                row.chinese,
                row.note,
                "true" if row.case_sensitive else "false",
                "|".join(row.forbidden),
            ]
        )
    return out.getvalue()


def parse_csv(text: str) -> list[TermRow]:
    reader = csv.DictReader(io.StringIO(text))
    missing = [name for name in ("english", "chinese") if name not in (reader.fieldnames or [])]
    if missing:
        raise GlossaryImportError(
            _("The CSV has no column %(columns)s.") % {"columns": ", ".join(missing)}
        )
    rows = []
    for number, record in enumerate(reader, start=2):
        case_rule = (record.get("case_sensitive") or "false").strip().lower()
        if case_rule not in ("true", "false"):
            raise GlossaryImportError(
                _("Line %(line)d: case_sensitive must be true or false, not %(value)r.")
                % {"line": number, "value": case_rule}
            )
        rows.append(
            TermRow(
                english=(record.get("english") or "").strip(),
                chinese=(record.get("chinese") or "").strip(),
                note=(record.get("note") or "").strip(),
                case_sensitive=case_rule == "true",
                forbidden=tuple(
                    v.strip()
                    for v in (record.get("forbidden_variants") or "").split("|")
                    if v.strip()
                ),
            )
        )
    return rows


def export_tbx(terms) -> bytes:
    martif = ET.Element("martif", {"type": "TBX-Basic", XML_LANG: "en"})
    header = ET.SubElement(ET.SubElement(martif, "martifHeader"), "fileDesc")
    ET.SubElement(ET.SubElement(header, "sourceDesc"), "p").text = "Research digests glossary"
    body = ET.SubElement(ET.SubElement(martif, "text"), "body")
    for number, row in enumerate(rows_of(terms), start=1):
        entry = ET.SubElement(body, "termEntry", {"id": f"t{number}"})
        if row.note:
            ET.SubElement(entry, "note").text = row.note
        english = ET.SubElement(ET.SubElement(entry, "langSet", {XML_LANG: "en"}), "tig")
        ET.SubElement(english, "term").text = row.english
        ET.SubElement(english, "termNote", {"type": "x-caseSensitive"}).text = (
            "true" if row.case_sensitive else "false"
        )
        chinese = ET.SubElement(entry, "langSet", {XML_LANG: TARGET_LANG})
        for text, status in [(row.chinese, PREFERRED), *((v, DEPRECATED) for v in row.forbidden)]:
            tig = ET.SubElement(chinese, "tig")
            ET.SubElement(tig, "term").text = text
            ET.SubElement(tig, "termNote", {"type": "administrativeStatus"}).text = status
    ET.indent(martif)
    return ET.tostring(martif, encoding="utf-8", xml_declaration=True)


def local_name(element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def descendants(element, *names: str):
    return [child for child in element.iter() if local_name(child) in names]


def first_text(element, *names: str) -> str:
    found = descendants(element, *names)
    return (found[0].text or "").strip() if found else ""


def parse_tbx(data: bytes) -> list[TermRow]:
    """TBX-Basic as we write it (TBX v2, `martif`), and TBX v3 (`tbx`, `conceptEntry`) too."""
    try:
        root = SafeET.fromstring(data)
    except Exception as error:  # defusedxml raises its own and ElementTree's errors
        raise GlossaryImportError(
            _("The file is not valid TBX: %(error)s") % {"error": error}
        ) from error
    if local_name(root) not in ("martif", "tbx"):
        raise GlossaryImportError(
            _("The file is not TBX: its root element is neither <martif> nor <tbx>.")
        )
    rows = []
    entries = descendants(root, "termEntry", "conceptEntry")
    for number, entry in enumerate(entries, start=1):
        notes = [n for n in entry if local_name(n) == "note"]
        row = TermRow(english="", chinese="", note=(notes[0].text or "").strip() if notes else "")
        forbidden = []
        for lang_set in descendants(entry, "langSet", "langSec"):
            lang = (lang_set.get(XML_LANG) or "").lower()
            for group in descendants(lang_set, "tig", "ntig", "termSec"):
                term = first_text(group, "term")
                kinds = {
                    n.get("type"): (n.text or "").strip() for n in descendants(group, "termNote")
                }
                if lang.startswith("en"):
                    row.english = term
                    row.case_sensitive = kinds.get("x-caseSensitive") == "true"
                elif lang.startswith("zh"):
                    if kinds.get("administrativeStatus") == DEPRECATED:
                        forbidden.append(term)
                    elif not row.chinese:
                        row.chinese = term
        row.forbidden = tuple(forbidden)
        if not row.english or not row.chinese:
            raise GlossaryImportError(
                _("Term entry %(number)d has no English or no zh-Hant term.") % {"number": number}
            )
        rows.append(row)
    return rows


def validate(rows: list[TermRow]) -> None:
    seen = set()
    for number, row in enumerate(rows, start=1):
        if not row.english or not row.chinese:
            raise GlossaryImportError(
                _("Term %(number)d needs both an English and a Chinese term.") % {"number": number}
            )
        if row.english.lower() in seen:
            raise GlossaryImportError(
                _("Term %(number)d: “%(english)s” appears twice.")
                % {"number": number, "english": row.english}
            )
        seen.add(row.english.lower())
        english_max = GlossaryTerm.english.field.max_length
        if len(row.english) > english_max or len(row.chinese) > english_max:
            raise GlossaryImportError(
                _("Term %(number)d is longer than %(max)d characters.")
                % {"number": number, "max": english_max}
            )


@transaction.atomic
def import_rows(rows: list[TermRow]) -> tuple[int, int]:
    """Add or update each term; returns (added, updated). Validates all rows first."""
    validate(rows)
    added = updated = 0
    for row in rows:
        _term, created = GlossaryTerm.objects.update_or_create(
            english=row.english,
            defaults={
                "chinese": row.chinese,
                "note": row.note,
                "case_sensitive": row.case_sensitive,
                "forbidden_variants": "\n".join(row.forbidden),
            },
        )
        added += created
        updated += not created
    return added, updated


def parse(filename: str, data: bytes) -> list[TermRow]:
    """Rows of an uploaded file, by its extension (.csv or .tbx)."""
    name = filename.lower()
    if name.endswith(".tbx") or name.endswith(".xml"):
        return parse_tbx(data)
    if name.endswith(".csv"):
        try:
            return parse_csv(data.decode("utf-8-sig"))
        except UnicodeDecodeError as error:
            raise GlossaryImportError(
                _("The CSV is not UTF-8: %(error)s") % {"error": error}
            ) from error
    raise GlossaryImportError(_("Upload a .csv or .tbx file."))
