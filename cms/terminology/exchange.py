"""The glossary as CSV or TBX, out and back in.

CSV columns: english, chinese, note, case_sensitive (true/false), forbidden_variants (separated
by "|"), as in the shipped glossary_seed.csv.

TBX is TBX-Basic (ISO 30042 `martif`), written and read with ElementTree: the maintained TBX
readers come with a whole localisation toolkit (translate-toolkit) for the dozen elements used.
One `termEntry` per term: an English `langSet` with the case rule as a `termNote` of type
`x-caseSensitive`, a zh-Hant one with the Chinese term `preferredTerm-admn-sts` and each
forbidden variant `deprecatedTerm-admn-sts`, the note as `note`. TBX v3 (`tbx`, `conceptEntry`,
`langSec`, `termSec`, as Weblate and others export) is read too. Uploads are parsed with
defusedxml, so an entity bomb or external entity is refused. The Traditional Chinese langSet is
the one cms.translation.guard.zh_hant.is_traditional_chinese accepts, as for locales and machine
translation; Simplified ones (zh-Hans, zh-CN, zh-SG, plain zh) are ignored, and an entry with no
Traditional one is refused.

An import checks every row before it writes any, each as the glossary would be after the import,
by the rules the admin's form applies (cms.terminology.rules), and names the row and the problem:
a CSV row by the line it starts on (the header is line 1), a TBX entry by its position (from 1)
and its `id` if it has one. It adds and updates, never deletes; a row updates the term with the
same English in any capitalisation (and takes the file's spelling), as the glossary holds one
term per English phrase whatever its case rule. Refused unread: a file above MAX_UPLOAD_BYTES.
Refused naming the line: a CSV with a NUL, or a field longer than csv.field_size_limit().

The exported CSV is opened in spreadsheets, which run a cell starting with `=`, `+`, `-`, `@`
(or a tab or carriage return before one) as a formula: `=HYPERLINK(...)` in a note would be a
live link in a reviewer's sheet. Such a cell is written with a leading `'` (OWASP's advice for
CSV injection), which spreadsheets show as text, and an import takes that `'` off again, so a
glossary goes out and back in unchanged.
"""

import csv
import io
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from defusedxml import ElementTree as SafeET
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from wagtail.search.backends import get_search_backends

from cms.translation.guard.zh_hant import is_traditional_chinese, language_subtags

from .models import GlossaryTerm
from .rules import Entry, Glossary, rule_errors

CSV_FIELDS = ["english", "chinese", "note", "case_sensitive", "forbidden_variants"]
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
PREFERRED = "preferredTerm-admn-sts"
DEPRECATED = "deprecatedTerm-admn-sts"
TARGET_LANG = "zh-Hant"
# The glossary is about 4 KB as CSV; a file 250 times that size is not a glossary. (The digest
# seed's settings.IMPORT_MAX_BYTES is for `import_digests` run by an operator, not uploads.) The
# check spares memory and parsing; Django has received the upload by then, and a limit on request
# bodies belongs to the web server in front.
MAX_UPLOAD_BYTES = 1024 * 1024
# A refused import lists at most this many problems, then how many more there are.
MAX_REPORTED_PROBLEMS = 20
# What an import writes of a term, and how many rows go in one INSERT or UPDATE (SQLite's
# limit on query parameters is the tightest of the databases used).
IMPORTED_FIELDS = ["english", "chinese", "note", "case_sensitive", "forbidden_variants"]
BULK_BATCH = 500


class GlossaryImportError(ValueError):
    """The file could not be read as a glossary; nothing was written. One message a problem."""

    def __init__(self, *messages: str):
        super().__init__(*messages)
        self.messages = list(messages)

    def __str__(self) -> str:
        return " ".join(self.messages)


@dataclass
class TermRow:
    english: str
    chinese: str
    note: str = ""
    case_sensitive: bool = False
    forbidden: tuple[str, ...] = ()
    where: str = ""  # "Line 3", "Term entry 2 (id “t2”)": how errors name the row


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_MARK = "'"


def as_spreadsheet_text(value: str) -> str:
    """`value` as a cell no spreadsheet runs as a formula (see the module's docstring)."""
    return TEXT_MARK + value if value.startswith(FORMULA_STARTS) else value


def from_spreadsheet_text(value: str) -> str:
    """`value` with the mark `as_spreadsheet_text` added taken off again."""
    if value.startswith(TEXT_MARK) and value[1:].startswith(FORMULA_STARTS):
        return value[1:]
    return value


def export_csv(terms) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    writer.writerows(
        [
            as_spreadsheet_text(t.english),
            as_spreadsheet_text(t.chinese),
            as_spreadsheet_text(t.note),
            str(t.case_sensitive).lower(),
            as_spreadsheet_text("|".join(t.forbidden)),
        ]
        for t in terms
    )
    return out.getvalue()


def line_label(number: int) -> str:
    return _("Line %(line)d") % {"line": number}


def csv_records(text: str):
    """(line the record starts on, fields) for each non-blank record of the CSV `text`."""
    nul = text.find("\0")
    if nul != -1:
        raise GlossaryImportError(
            _("%(where)s: a NUL character (U+0000); the glossary cannot store it.")
            % {"where": line_label(text.count("\n", 0, nul) + 1)}
        )
    reader = csv.reader(io.StringIO(text, newline=""))
    while True:
        start = reader.line_num + 1
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            if str(error).startswith("field larger than field limit"):
                message = _("%(where)s: a field is longer than %(limit)s characters.") % {
                    "where": line_label(start),
                    "limit": f"{csv.field_size_limit():,}",
                }
            else:
                message = _("%(where)s: the CSV cannot be read: %(error)s") % {
                    "where": line_label(start),
                    "error": error,
                }
            raise GlossaryImportError(message) from error
        if record:
            yield start, record


def parse_csv(text: str) -> list[TermRow]:
    records = csv_records(text)
    _line, header = next(records, (1, []))
    missing = [name for name in ("english", "chinese") if name not in header]
    if missing:
        raise GlossaryImportError(
            _("The CSV has no column %(columns)s.") % {"columns": ", ".join(missing)}
        )
    rows = []
    for number, fields in records:
        record = dict(zip(header, map(from_spreadsheet_text, fields), strict=False))
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
                where=line_label(number),
            )
        )
    return rows


def export_tbx(terms) -> bytes:
    martif = ET.Element("martif", {"type": "TBX-Basic", XML_LANG: "en"})
    header = ET.SubElement(ET.SubElement(martif, "martifHeader"), "fileDesc")
    ET.SubElement(ET.SubElement(header, "sourceDesc"), "p").text = "Research digests glossary"
    body = ET.SubElement(ET.SubElement(martif, "text"), "body")
    for number, term in enumerate(terms, start=1):
        entry = ET.SubElement(body, "termEntry", {"id": f"t{number}"})
        if term.note:
            ET.SubElement(entry, "note").text = term.note
        english = ET.SubElement(ET.SubElement(entry, "langSet", {XML_LANG: "en"}), "tig")
        ET.SubElement(english, "term").text = term.english
        case_rule = ET.SubElement(english, "termNote", {"type": "x-caseSensitive"})
        case_rule.text = str(term.case_sensitive).lower()
        chinese = ET.SubElement(entry, "langSet", {XML_LANG: TARGET_LANG})
        for text, status in [(term.chinese, PREFERRED), *((v, DEPRECATED) for v in term.forbidden)]:
            tig = ET.SubElement(chinese, "tig")
            ET.SubElement(tig, "term").text = text
            ET.SubElement(tig, "termNote", {"type": "administrativeStatus"}).text = status
    ET.indent(martif)
    return ET.tostring(martif, encoding="utf-8", xml_declaration=True)


def local_name(element) -> str:
    return element.tag.rsplit("}", 1)[-1]


def descendants(element, *names: str):
    return [child for child in element.iter() if local_name(child) in names]


def entry_label(number: int, entry) -> str:
    identifier = entry.get("id")
    if identifier:
        return _("Term entry %(number)d (id “%(id)s”)") % {"number": number, "id": identifier}
    return _("Term entry %(number)d") % {"number": number}


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
        row = TermRow(
            english="",
            chinese="",
            note=next((n.text or "" for n in entry if local_name(n) == "note"), "").strip(),
            where=entry_label(number, entry),
        )
        forbidden = []
        other_chinese = []
        for lang_set in descendants(entry, "langSet", "langSec"):
            lang = lang_set.get(XML_LANG) or ""
            language = language_subtags(lang)[0]
            english = language == "en"
            if not english and not is_traditional_chinese(lang):
                if language == "zh":
                    other_chinese.append(lang)
                continue
            for group in descendants(lang_set, "tig", "ntig", "termSec"):
                term = next((t.text or "" for t in descendants(group, "term")), "").strip()
                kinds = {
                    n.get("type"): (n.text or "").strip() for n in descendants(group, "termNote")
                }
                if english:
                    row.english = term
                    row.case_sensitive = kinds.get("x-caseSensitive") == "true"
                elif kinds.get("administrativeStatus") == DEPRECATED:
                    forbidden.append(term)
                elif not row.chinese:
                    row.chinese = term
        row.forbidden = tuple(forbidden)
        if not row.chinese and other_chinese:
            raise GlossaryImportError(
                _(
                    "%(where)s has Chinese only in %(languages)s, not Traditional Chinese; the "
                    "glossary needs a zh-Hant (or zh-TW, zh-HK, zh-MO) langSet."
                )
                % {"where": row.where, "languages": ", ".join(dict.fromkeys(other_chinese))}
            )
        if not row.english or not row.chinese:
            raise GlossaryImportError(
                _("%(where)s has no English or no zh-Hant term.") % {"where": row.where}
            )
        rows.append(row)
    return rows


def validate(rows: list[TermRow]) -> None:
    """What the file alone must get right: both terms on every row, each English term once."""
    seen = set()
    for row in rows:
        if not row.english or not row.chinese:
            raise GlossaryImportError(
                _("%(where)s: needs both an English and a Chinese term.") % {"where": row.where}
            )
        if row.english.lower() in seen:
            raise GlossaryImportError(
                _("%(where)s: “%(english)s” appears twice.")
                % {"where": row.where, "english": row.english}
            )
        seen.add(row.english.lower())


def problem(row: TermRow, field: str, message: str) -> str:
    return _("%(where)s, %(field)s: %(message)s") % {
        "where": row.where,
        "field": capfirst(getattr(GlossaryTerm, field).field.verbose_name),
        "message": message,
    }


def plan_import(rows: list[TermRow]) -> list[tuple[GlossaryTerm, bool]]:
    """The terms to save, each with whether it is new; every row checked, nothing written.

    Each row is checked as the glossary would be after the import, so a file may move a
    variant from one term to another.
    """
    validate(rows)
    existing: dict[str, list[GlossaryTerm]] = {}
    for term in GlossaryTerm.objects.all():
        existing.setdefault(term.english.lower(), []).append(term)
    plan = []
    replaced = set()
    for row in rows:
        same = existing.get(row.english.lower(), [])
        term = next((t for t in same if t.english == row.english), same[0] if same else None)
        created = term is None
        if created:
            term = GlossaryTerm()
        else:
            replaced.add(term.pk)
        term.english = row.english
        term.chinese = row.chinese
        term.note = row.note
        term.case_sensitive = row.case_sensitive
        term.forbidden_variants = "\n".join(row.forbidden)
        plan.append((term, created))
    entries = [Entry.of(row) for row in rows]
    glossary = Glossary(
        [
            *entries,
            *(
                Entry.of(kept)
                for same in existing.values()
                for kept in same
                if kept.pk not in replaced
            ),
        ]
    )
    problems = []
    for row, entry, (term, _created) in zip(rows, entries, plan, strict=True):
        try:
            term.clean_fields()
        except ValidationError as error:
            problems += [
                problem(row, field, message)
                for field, messages in error.message_dict.items()
                for message in messages
            ]
        problems += [
            problem(row, field, message)
            for field, messages in rule_errors(entry, glossary).items()
            for message in messages
        ]
    if problems:
        shown = problems[:MAX_REPORTED_PROBLEMS]
        more = len(problems) - len(shown)
        if more:
            shown.append(
                ngettext("… and %(count)d more problem.", "… and %(count)d more problems.", more)
                % {"count": more}
            )
        raise GlossaryImportError(*shown)
    return plan


@transaction.atomic
def apply(plan: list[tuple[GlossaryTerm, bool]]) -> tuple[int, int]:
    """Save a plan_import's terms and index them for the admin's search, in one transaction;
    returns (added, updated).

    One save per term, each indexed by Wagtail's post_save handler, took 26 s for 6,000 terms in
    one request. The terms go in as one upsert on the primary key instead (new terms have none,
    so they are inserted; the others update their row, the English spelling included), which
    sends no signals, so they are indexed here, in bulk too. (bulk_update was no faster than a
    save per term: it builds a CASE per field and term.) Nothing else listens to a term's save:
    every check reads the glossary afresh.
    """
    terms = [term for term, _created in plan]
    GlossaryTerm.objects.bulk_create(
        terms,
        batch_size=BULK_BATCH,
        update_conflicts=True,
        unique_fields=["id"],
        update_fields=IMPORTED_FIELDS,
    )
    if terms:
        for backend in get_search_backends(with_auto_update=True):
            backend.add_bulk(GlossaryTerm, terms)
    added = sum(created for _term, created in plan)
    return added, len(plan) - added


def read_upload(upload) -> bytes:
    """An uploaded file's content, refused above MAX_UPLOAD_BYTES (before reading it if it can)."""
    size = upload.size
    if size is None or size <= MAX_UPLOAD_BYTES:
        data = upload.read(MAX_UPLOAD_BYTES + 1)
        size = len(data)
    if size > MAX_UPLOAD_BYTES:
        raise GlossaryImportError(
            _("The file is %(size)s bytes, over the import limit of %(limit)s bytes.")
            % {"size": f"{size:,}", "limit": f"{MAX_UPLOAD_BYTES:,}"}
        )
    return data


def parse(filename: str, data: bytes) -> list[TermRow]:
    """Rows of an uploaded file, by its extension (.csv or .tbx)."""
    name = filename.lower()
    if name.endswith((".tbx", ".xml")):
        return parse_tbx(data)
    if name.endswith(".csv"):
        try:
            return parse_csv(data.decode("utf-8-sig"))
        except UnicodeDecodeError as error:
            raise GlossaryImportError(
                _("The CSV is not UTF-8: %(error)s") % {"error": error}
            ) from error
    raise GlossaryImportError(_("Upload a .csv or .tbx file."))
