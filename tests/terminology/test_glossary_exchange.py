"""The glossary goes out and back in as CSV or TBX; a bad file names its fault, writes nothing."""

import csv
import io
import xml.etree.ElementTree as ET

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from wagtail.search.backends import get_search_backend

from cms.terminology import exchange
from cms.terminology.models import GlossaryTerm

pytestmark = pytest.mark.django_db


def snapshot():
    return sorted(
        (t.english, t.chinese, t.note, t.case_sensitive, tuple(t.forbidden))
        for t in GlossaryTerm.objects.all()
    )


@pytest.mark.parametrize("file_format", ["csv", "tbx"])
def test_export_then_import_gives_the_same_glossary(client, translator, file_format):
    GlossaryTerm.objects.filter(english="congestion control").update(case_sensitive=True)
    before = snapshot()
    client.force_login(translator)
    response = client.get(reverse("terminology_glossary_export", args=[file_format]))
    assert response.status_code == 200
    exported = response.content
    GlossaryTerm.objects.all().delete()

    response = client.post(
        reverse("terminology_glossary_import"),
        {"file": SimpleUploadedFile(f"glossary.{file_format}", exported)},
    )

    assert response.status_code == 302
    assert snapshot() == before


def test_tbx_has_the_tbx_basic_shape(client, translator):
    client.force_login(translator)
    root = ET.fromstring(client.get(reverse("terminology_glossary_export", args=["tbx"])).content)
    assert root.tag == "martif" and root.get("type") == "TBX-Basic"
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    entry = next(
        e for e in root.iter("termEntry") if e.find("langSet/tig/term").text == "congestion control"
    )
    zh = next(s for s in entry.iter("langSet") if s.get(lang) == "zh-Hant")
    statuses = {tig.findtext("term"): tig.findtext("termNote") for tig in zh.iter("tig")}
    assert statuses["壅塞控制"] == "preferredTerm-admn-sts"
    assert statuses["拥塞控制"] == "deprecatedTerm-admn-sts"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.csv", "english,chinese,case_sensitive\nqueue,佇列,maybe\n", "Line 2: case_sensitive"),
        ("bad.csv", "english,note\nqueue,x\n", "The CSV has no column chinese."),
        ("bad.csv", "english,chinese\nqueue,佇列\nQueue,隊列\n", "“Queue” appears twice"),
        (
            "bad.tbx",
            '<martif type="TBX-Basic"><text><body><termEntry><langSet xml:lang="en"><tig>'
            "<term>queue</term></tig></langSet></termEntry></body></text></martif>",
            "Term entry 1 has no English or no zh-Hant term.",
        ),
        ("bad.tbx", "<martif><unclosed></martif>", "The file is not valid TBX"),
        (
            "bomb.tbx",
            '<?xml version="1.0"?><!DOCTYPE m [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]>'
            "<martif>&b;</martif>",
            "The file is not valid TBX",
        ),
        ("notes.txt", "queue", "Upload a .csv or .tbx file."),
    ],
)
def test_a_bad_file_is_refused_with_its_fault_and_nothing_changes(
    client, translator, name, content, message
):
    before = snapshot()
    client.force_login(translator)
    response = client.post(
        reverse("terminology_glossary_import"),
        {"file": SimpleUploadedFile(name, content.encode())},
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert snapshot() == before


def test_an_import_adds_and_updates_but_deletes_nothing(client, translator):
    count = GlossaryTerm.objects.count()
    client.force_login(translator)
    csv_text = (
        "english,chinese,note,case_sensitive,forbidden_variants\n"
        "congestion control,壅塞控制,Taiwan usage.,false,拥塞控制|擁塞控制|拥塞管理\n"
        "queue pair,佇列對,,false,队列对\n"
    )
    client.post(
        reverse("terminology_glossary_import"),
        {"file": SimpleUploadedFile("terms.csv", csv_text.encode())},
    )
    assert GlossaryTerm.objects.count() == count + 1
    assert "拥塞管理" in GlossaryTerm.objects.get(english="congestion control").forbidden


def test_editors_may_not_import(client, editor):
    before = snapshot()
    client.force_login(editor)
    response = client.post(
        reverse("terminology_glossary_import"),
        {"file": SimpleUploadedFile("t.csv", b"english,chinese\nx,y\n")},
    )
    assert response.status_code in (302, 403)
    assert snapshot() == before


def test_parse_rejects_non_utf8_csv():
    with pytest.raises(exchange.GlossaryImportError, match="not UTF-8"):
        exchange.parse("t.csv", "english,chinese\nx,佇列\n".encode("big5"))


def test_a_tbx_v3_file_is_read_too():
    data = """<?xml version="1.0" encoding="UTF-8"?>
<tbx type="TBX-Basic" style="dca" xml:lang="en" xmlns="urn:iso:std:iso:30042:ed-2">
  <tbxHeader><fileDesc><sourceDesc><p>Exported glossary</p></sourceDesc></fileDesc></tbxHeader>
  <text><body>
    <conceptEntry id="c1">
      <langSec xml:lang="en"><termSec><term>queue pair</term></termSec></langSec>
      <langSec xml:lang="zh-Hant">
        <termSec><term>佇列對</term>
          <termNote type="administrativeStatus">preferredTerm-admn-sts</termNote></termSec>
        <termSec><term>队列对</term>
          <termNote type="administrativeStatus">deprecatedTerm-admn-sts</termNote></termSec>
      </langSec>
    </conceptEntry>
  </body></text>
</tbx>""".encode()
    [row] = exchange.parse("glossary.tbx", data)
    assert (row.english, row.chinese, row.forbidden) == ("queue pair", "佇列對", ("队列对",))


def test_the_glossary_listing_offers_the_exchange_to_its_keepers(client, translator, editor):
    url = reverse("wagtailsnippets_terminology_glossaryterm:list")
    client.force_login(translator)
    html = client.get(url).content.decode()
    assert "congestion control" in html and "Export TBX" in html and "Import CSV or TBX" in html
    client.force_login(editor)  # may look terms up, not change them
    html = client.get(url).content.decode()
    assert "congestion control" in html and "Import CSV or TBX" not in html


HEADER = "english,chinese,note,case_sensitive,forbidden_variants\n"


def post_file(client, translator, name: str, content, **kwargs):
    client.force_login(translator)
    data = content if isinstance(content, bytes) else content.encode()
    return client.post(
        reverse("terminology_glossary_import"),
        {"file": SimpleUploadedFile(name, data)},
        **kwargs,
    )


def tbx(*entries: str) -> str:
    return f'<martif type="TBX-Basic"><text><body>{"".join(entries)}</body></text></martif>'


def term_entry(english: str, *lang_sets: tuple[str, str], entry_id: str = "") -> str:
    sets = "".join(
        f'<langSet xml:lang="{lang}"><tig><term>{term}</term></tig></langSet>'
        for lang, term in lang_sets
    )
    id_attribute = f' id="{entry_id}"' if entry_id else ""
    return (
        f'<termEntry{id_attribute}><langSet xml:lang="en"><tig><term>{english}</term></tig>'
        f"</langSet>{sets}</termEntry>"
    )


@pytest.mark.parametrize("traditional", ["zh-Hant", "ZH-HANT-tw", "zh-TW", "zh-hk", "zh-MO"])
def test_a_tbx_entry_takes_its_traditional_chinese_whatever_comes_first(
    client, translator, traditional
):
    data = tbx(
        term_entry("tail latency", ("zh-Hans", "尾部延迟"), (traditional, "尾端延遲")),
        term_entry(
            "head latency", ("zh-CN", "头部延迟"), ("zh", "头部延迟"), (traditional, "首端延遲")
        ),
    )
    response = post_file(client, translator, "glossary.tbx", data, follow=True)
    assert "1 terms added, 1 updated" in response.content.decode()
    assert GlossaryTerm.objects.get(english="tail latency").chinese == "尾端延遲"
    assert GlossaryTerm.objects.get(english="head latency").chinese == "首端延遲"


@pytest.mark.parametrize("simplified", ["zh-Hans", "zh-CN", "zh-SG", "zh", "zh-hans-tw"])
def test_a_tbx_entry_with_only_simplified_chinese_is_refused_by_its_position_and_id(
    client, translator, simplified
):
    before = snapshot()
    data = tbx(
        term_entry("queue pair", ("zh-Hant", "佇列對")),
        term_entry("tail latency", (simplified, "尾部延迟"), entry_id="t7"),
    )
    response = post_file(client, translator, "glossary.tbx", data)
    assert response.status_code == 200
    assert (
        f"Term entry 2 (id “t7”) has Chinese only in {simplified}, not Traditional Chinese"
        in response.content.decode()
    )
    assert snapshot() == before


@pytest.mark.parametrize(
    ("row", "message"),
    [
        (
            "load balancer,负载均衡器,,false,",
            "Line 3, Traditional Chinese term: “负载均衡器” has Simplified-only characters (负载)",
        ),
        (
            "packet loss,丟包,,false,丟包",
            "Line 3, Forbidden variants: “丟包” is the preferred term; it cannot also be forbidden",
        ),
        (
            "packet loss,丟包,,false,包",
            "Line 3, Forbidden variants: “包” is part of the preferred term “丟包”",
        ),
        (  # updates `congestion control` (any capitalisation), to a Simplified term
            "Congestion Control,拥塞控制,,false,",
            "Line 3, Traditional Chinese term: “拥塞控制” has Simplified-only characters (拥)",
        ),
        (  # `congestion` forbids 擁塞
            "network congestion,網路擁塞,,false,",
            "Line 3, Traditional Chinese term: “網路擁塞” contains “擁塞”, which “congestion”",
        ),
        (
            "queue depth,佇列深度,,false,壅塞",
            "Line 3, Forbidden variants: “壅塞” is in “壅塞”, the preferred term of “congestion”",
        ),
    ],
)
def test_an_import_breaking_a_glossary_rule_is_refused_naming_the_line(
    client, translator, row, message
):
    before = snapshot()
    csv_text = f"{HEADER}queue pair,佇列對,,false,\n{row}\n"
    response = post_file(client, translator, "terms.csv", csv_text)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert snapshot() == before


def test_an_import_lists_every_row_it_refuses(client, translator):
    csv_text = (
        "english,chinese,note,case_sensitive,forbidden_variants\n"
        "load balancer,负载均衡器,,false,\n"
        "packet loss,丟包,,false,丟包\n"
    )
    html = post_file(client, translator, "terms.csv", csv_text).content.decode()
    assert "Line 2, Traditional Chinese term:" in html and "Line 3, Forbidden variants:" in html


def test_an_import_checks_the_glossary_it_would_make_so_a_variant_may_move(client, translator):
    # 擁塞 goes from `congestion` to a new term's preferred term in one file: no contradiction.
    csv_text = (
        "english,chinese,note,case_sensitive,forbidden_variants\n"
        "network congestion,網路擁塞,,false,\n"
        "congestion,壅塞,,false,拥塞\n"
    )
    response = post_file(client, translator, "terms.csv", csv_text)
    assert response.status_code == 302
    assert GlossaryTerm.objects.get(english="congestion").forbidden == ["拥塞"]


def test_an_english_term_in_other_capitalisation_updates_the_term(client, translator):
    count = GlossaryTerm.objects.count()
    csv_text = f"{HEADER}CONGESTION CONTROL,壅塞控制,,false,拥塞控制\n"
    response = post_file(client, translator, "terms.csv", csv_text, follow=True)
    assert "0 terms added, 1 updated" in response.content.decode()
    assert GlossaryTerm.objects.count() == count
    [term] = GlossaryTerm.objects.filter(english__iexact="congestion control")
    assert (term.english, term.chinese, term.forbidden) == (
        "CONGESTION CONTROL",
        "壅塞控制",
        ["拥塞控制"],
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            "english,chinese\nqueue pair,佇列對\nqueue depth,\n",
            "Line 3: needs both an English and a Chinese term.",
        ),
        (  # a quoted note over two lines: the next row starts on line 4
            'english,chinese,note\nqueue pair,佇列對,"two\nlines"\nqueue depth,,\n',
            "Line 4: needs both an English and a Chinese term.",
        ),
        (
            "english,chinese,case_sensitive\n\nqueue pair,佇列對,false\nqueue,佇列,maybe\n",
            "Line 4: case_sensitive must be true or false",
        ),
        ("english,chinese\nqueue,佇列\n\nQueue,隊列\n", "Line 4: “Queue” appears twice."),
        (
            "english,chinese\nqueue,佇列\nqueue pair,佇列對\nqueue\0 depth,佇列深度\n",
            "Line 4: a NUL character (U+0000); the glossary cannot store it.",
        ),
        (
            'english,chinese,note\nqueue,佇列,ok\nqueue pair,佇列對,"' + "x" * 131_073 + '"\n',
            "Line 3: a field is longer than 131,072 characters.",
        ),
        (
            "english,chinese\nqueue pair," + "佇" * 201 + "\n",
            "Line 2, Traditional Chinese term: Ensure this value has at most 200 characters",
        ),
    ],
)
def test_a_bad_csv_is_refused_by_its_line_and_nothing_changes(client, translator, content, message):
    before = snapshot()
    response = post_file(client, translator, "terms.csv", content)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert snapshot() == before


def test_a_tbx_entry_is_named_by_its_position_when_it_has_no_id(client, translator):
    data = tbx(term_entry("queue pair", ("zh-Hant", "佇列對")), term_entry("tail latency"))
    html = post_file(client, translator, "glossary.tbx", data).content.decode()
    assert "Term entry 2 has no English or no zh-Hant term." in html


def test_a_file_over_the_upload_limit_is_refused_unread(client, translator):
    before = snapshot()
    header = b"english,chinese,note\nqueue,\xe4\xbd\x87\xe5\x88\x97,"
    content = header + b"x" * (exchange.MAX_UPLOAD_BYTES + 1 - len(header))
    response = post_file(client, translator, "terms.csv", content)
    assert response.status_code == 200
    assert (
        "The file is 1,048,577 bytes, over the import limit of 1,048,576 bytes."
        in response.content.decode()
    )
    assert snapshot() == before


def add_term(client, translator, **fields):
    client.force_login(translator)
    data = {"english": "", "chinese": "", "note": "", "forbidden_variants": "", **fields}
    return client.post(reverse("wagtailsnippets_terminology_glossaryterm:add"), data)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"english": "CONGESTION CONTROL", "chinese": "壅塞控制"},
            "“congestion control” is already in the glossary; a term in other capitalisation "
            "is the same term.",
        ),
        (
            {"english": "load balancer", "chinese": "负载均衡器"},
            "“负载均衡器” has Simplified-only characters (负载)",
        ),
        (
            {"english": "packet loss", "chinese": "丟包", "forbidden_variants": "丢包\n丟包"},
            "“丟包” is the preferred term; it cannot also be forbidden.",
        ),
        (
            {"english": "network congestion", "chinese": "網路擁塞"},
            "“網路擁塞” contains “擁塞”, which “congestion” forbids.",
        ),
    ],
)
def test_the_add_form_refuses_what_the_import_refuses(client, translator, fields, message):
    before = snapshot()
    response = add_term(client, translator, **fields)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert snapshot() == before


def test_the_edit_form_refuses_a_contradiction_with_another_term(client, translator):
    before = snapshot()
    term = GlossaryTerm.objects.get(english="congestion window")
    client.force_login(translator)
    response = client.post(
        reverse("wagtailsnippets_terminology_glossaryterm:edit", args=[term.pk]),
        {
            "english": term.english,
            "chinese": term.chinese,
            "note": term.note,
            "forbidden_variants": "拥塞窗口\n壅塞",
        },
    )
    assert response.status_code == 200
    assert "“壅塞” is in “壅塞”, the preferred term of “congestion”" in response.content.decode()
    assert snapshot() == before


def test_the_add_form_still_adds_a_good_term(client, translator):
    response = add_term(
        client, translator, english="packet loss", chinese="丟包", forbidden_variants="丢包"
    )
    assert response.status_code == 302
    assert GlossaryTerm.objects.get(english="packet loss").forbidden == ["丢包"]


def test_the_report_offers_the_import_only_to_those_it_lets_in(client, editor):
    """Adding terms without changing them is not enough to import (an import updates terms)."""
    from django.contrib.auth.models import Permission

    editor.user_permissions.add(
        Permission.objects.get(codename="add_glossaryterm"),
        Permission.objects.get(codename="view_glossaryterm"),
    )
    client.force_login(editor)
    report = client.get(reverse("terminology_report")).content.decode()
    assert "Terminology check" in report
    assert "Import CSV or TBX" not in report
    refused = client.get(reverse("terminology_glossary_import"))  # the admin's "no permission"
    assert refused.status_code == 302 and refused["Location"] == reverse("wagtailadmin_home")


FORMULAS = {
    "english": '=HYPERLINK("https://evil.example","queue")',
    "chinese": "+佇列",
    "note": "@SUM(A1:A9)",
    "forbidden_variants": "-1+1\n隊列",
}


def test_the_csv_export_writes_no_formula_and_imports_back(client, translator):
    """A spreadsheet runs a cell starting with = + - @ as a formula: each goes out as text."""
    GlossaryTerm.objects.create(**FORMULAS)
    before = snapshot()
    client.force_login(translator)
    exported = client.get(reverse("terminology_glossary_export", args=["csv"])).content

    rows = list(csv.DictReader(io.StringIO(exported.decode("utf-8-sig"))))
    cells = [value for row in rows for value in row.values()]
    row = next(r for r in rows if "HYPERLINK" in r["english"])
    GlossaryTerm.objects.all().delete()
    response = client.post(
        reverse("terminology_glossary_import"),
        {"file": SimpleUploadedFile("glossary.csv", exported)},
    )

    assert not [cell for cell in cells if cell.startswith(("=", "+", "-", "@"))]
    assert row["english"] == "'" + FORMULAS["english"]
    assert row["note"] == "'@SUM(A1:A9)"
    assert response.status_code == 302
    assert snapshot() == before


def test_a_large_tbx_import_writes_in_bulk_and_indexes_every_term(
    client, translator, django_assert_max_num_queries
):
    """A 6,000-term import took 26 s: one save and one search-index write per term. It now
    writes in a bounded number of queries, whatever the file's size, updating existing terms in
    place (their English spelling too) and keeping them findable in the admin's search."""
    GlossaryTerm.objects.bulk_create(
        [GlossaryTerm(english=f"bulk term {n}", chinese=f"舊術語{n}") for n in range(300)]
    )
    kept_pks = set(GlossaryTerm.objects.filter(english__startswith="bulk").values_list("pk"))
    rows = [
        GlossaryTerm(english=f"Bulk Term {n}", chinese=f"大量術語{n}", note=f"note {n}")
        for n in range(600)
    ]
    upload = SimpleUploadedFile("big.tbx", exchange.export_tbx(rows))
    client.force_login(translator)
    before = GlossaryTerm.objects.count()

    with django_assert_max_num_queries(60):
        response = client.post(reverse("terminology_glossary_import"), {"file": upload})

    assert response.status_code == 302
    assert GlossaryTerm.objects.count() == before + 300
    updated = GlossaryTerm.objects.get(english="Bulk Term 7")
    assert (updated.pk,) in kept_pks  # the same row, the file's spelling and Chinese
    assert (updated.chinese, updated.note) == ("大量術語7", "note 7")
    added = GlossaryTerm.objects.get(english="Bulk Term 599")
    assert added.chinese == "大量術語599"
    # Bulk writes send no post_save: the import indexes them itself (the 300 old rows above
    # were never indexed, so finding the updated one shows the import did it).
    search = get_search_backend()
    assert added.pk in {term.pk for term in search.search("Bulk Term 599", GlossaryTerm)}
    assert updated.pk in {term.pk for term in search.search("Bulk Term 7", GlossaryTerm)}
