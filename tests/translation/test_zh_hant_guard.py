"""The zh-Hant guard: Simplified-only characters are flagged, the seed's Traditional passes."""

import pytest
from django.core.management import CommandError, call_command

from cms.digests.models import DigestPage
from cms.translation.guard.content_checks import check_page
from cms.translation.guard.zh_hant import (
    find_simplified,
    replacements,
    simplified_message,
    to_traditional,
)


def test_flags_simplified_only_characters():
    assert find_simplified("资料中心网络") == ["资", "网", "络"]
    assert to_traditional("网络") == "網絡"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("资料中心网络", [("资", "資"), ("网络", "網路")]),
        ("新的网络摘要。", [("网络", "網路")]),
        ("软件", [("软件", "軟體")]),
        ("内存很大", [("内存", "記憶體")]),  # longer than what it replaces
        ("打印机", [("打印机", "印表機")]),  # one word around a kept character
        ("公里與網絡", []),  # valid Traditional characters: not the guard's business
    ],
)
def test_suggests_taiwan_usage_word_by_word(text, expected):
    assert replacements(text) == expected


def test_the_message_names_the_word_and_its_taiwan_form():
    message = simplified_message("集合通訊网络")
    assert message.startswith("Simplified Chinese 网络: write 網路 instead.")


@pytest.mark.parametrize("text", ["資料中心網路", "公里", "看著", "里程碑", "English only", ""])
def test_traditional_text_passes(text):
    assert find_simplified(text) == []


@pytest.mark.django_db
def test_all_seed_digests_pass(capsys):
    zh_digests = DigestPage.objects.filter(locale__language_code="zh-hant")
    assert zh_digests.count() == 53
    assert all(check_page(page) == [] for page in zh_digests)
    call_command("check_zh_hant")
    assert "65 zh-hant pages checked" in capsys.readouterr().out


@pytest.mark.django_db
def test_command_fails_naming_the_page_and_text(capsys):
    page = DigestPage.objects.filter(locale__language_code="zh-hant").first()
    # Publishing it is refused now (cms.translation.policy.pages); text written before the guard
    # existed:
    DigestPage.objects.filter(pk=page.pk).update(summary="說明资料中心網路")
    with pytest.raises(CommandError, match="1 of 65 zh-hant pages"):
        call_command("check_zh_hant")
    out = capsys.readouterr().out
    assert page.title in out
    assert "Summary: Simplified 资" in out


@pytest.mark.django_db
def test_the_command_reads_synchronized_fields_and_code_blocks(capsys):
    """A short name and code or LaTeX blocks are copied from English, never translated: they
    are published text all the same."""
    page = DigestPage.objects.filter(locale__language_code="zh-hant").first()
    page.body.append(("code", {"language": "python", "code": "# 计算\nprint(1)"}))
    page.body.append(("equation", {"latex": r"\text{资}"}))
    DigestPage.objects.filter(pk=page.pk).update(short_name="网络Perf", body=page.body)
    page = DigestPage.objects.get(pk=page.pk)

    findings = check_page(page)
    with pytest.raises(CommandError, match="1 of 65 zh-hant pages"):
        call_command("check_zh_hant")

    assert {"网", "计", "资"} <= {c for finding in findings for c in finding.characters}
    assert "Short name" in [finding.where for finding in findings]
    out = capsys.readouterr().out
    assert "网" in out and "计" in out and "资" in out
