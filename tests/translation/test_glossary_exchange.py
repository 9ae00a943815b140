"""The glossary goes out and back in as CSV or TBX; a bad file names its fault, writes nothing."""

import xml.etree.ElementTree as ET

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

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
