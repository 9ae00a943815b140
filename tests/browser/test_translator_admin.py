"""What a translator and an administrator see in wagtail-localize's translation editor."""

import json

import pytest
from django.contrib.auth import get_user_model
from wagtail.models import Locale
from wagtail_localize.models import OverridableSegment, TranslationContext, TranslationSource

from cms.digests.models import DigestPage
from cms.translation.policy.roles import TRANSLATORS
from tests.support.factories import PUBLISHED, DigestPageFactory
from tests.support.users import member

from .test_translation_workflow import log_in, new_browser_page  # noqa: F401 (fixture)


def logged_in_page(open_page, who: str):
    """A browser page (from the `new_browser_page` fixture's `open_page`) signed in as a
    translator or an administrator."""
    if who == "translator":
        member(TRANSLATORS, "translator", password="translator")
    else:
        get_user_model().objects.create_superuser("admin", "admin@example.com", "admin")
    browser_page = open_page()
    log_in(browser_page, who)
    return browser_page


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def digest_showing_its_paper(seeded_live_server):
    """FabricPerf's zh-hant page, whose source shows the paper in the translation editor.

    As in a database whose sources were extracted while the paper field was overridable: the
    editor then draws it with wagtail-localize's snippet chooser and its "Edit this paper".
    """
    page = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    source = TranslationSource.objects.get(object_id=page.translation_key, locale=page.locale)
    context, _created = TranslationContext.objects.get_or_create(
        object_id=page.translation_key, path="paper"
    )
    OverridableSegment.objects.create(
        source=source, context=context, order=99, data_json=json.dumps(page.paper_id)
    )
    return page.get_translation(Locale.objects.get(language_code="zh-hant")), page.paper


@pytest.mark.parametrize("who", ["translator", "admin"])
def test_edit_this_paper_is_shown_only_to_those_who_may_edit_papers(
    new_browser_page,  # noqa: F811
    digest_showing_its_paper,
    who,
):
    zh_page, paper = digest_showing_its_paper
    browser_page = logged_in_page(new_browser_page, who)

    browser_page.goto(f"/admin/pages/{zh_page.pk}/edit/")

    if who == "translator":
        # A synchronized value the translator may not override is not drawn at all
        # (cms/translation/templatetags/translation_policy.py): no chooser, no link.
        browser_page.locator(".js-translation-editor footer").wait_for()
        assert browser_page.locator(".snippet-chooser").count() == 0
        assert browser_page.get_by_text("Edit this paper").count() == 0
        assert browser_page.get_by_text("Change paper").count() == 0
        return
    chooser = browser_page.locator(".snippet-chooser")
    chooser.get_by_text(paper.title[:40]).wait_for()
    link = chooser.get_by_text("Edit this paper")
    assert link.is_visible()
    assert link.get_attribute("href") == f"/admin/snippets/papers/paper/edit/{paper.pk}/"


@pytest.mark.parametrize("who", ["translator", "admin"])
def test_stop_and_convert_are_offered_only_to_administrators(
    new_browser_page,  # noqa: F811
    seeded_live_server,
    who,
):
    zh = DigestPage.objects.get(
        locale__language_code="en", short_name="FabricPerf"
    ).get_translation(Locale.objects.get(language_code="zh-hant"))
    browser_page = logged_in_page(new_browser_page, who)

    browser_page.goto(f"/admin/pages/{zh.pk}/edit/")
    footer = browser_page.locator(".js-translation-editor footer")
    footer.wait_for()
    footer.locator(".w-dropdown__toggle").first.click()
    stop = footer.get_by_text("Stop Synced translation")
    convert = footer.get_by_text("Convert to alias page")
    stop.wait_for(state="attached")
    if who == "translator":
        assert not stop.is_visible() and not convert.is_visible()
    else:
        assert stop.is_visible() and convert.is_visible()


@pytest.fixture
def digest_with_a_figure(seeded_live_server):
    """A live English digest with a figure, and its zh-hant translation (a draft)."""
    from wagtail.images import get_image_model
    from wagtail.images.tests.utils import get_test_image_file
    from wagtail_localize.models import Translation

    english = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    image = get_image_model().objects.create(title="Throughput", file=get_test_image_file())
    page = DigestPageFactory(
        parent=english.get_parent(),
        title="Rail fabrics in practice",
        slug="rail-fabrics-in-practice",
        short_name="RailPractice",
        reading_minutes=5,
        summary="Rail fabrics.",
        body=[("figure", {"image": image, "caption": "Throughput", "alt_text": ""})],
        revision=PUBLISHED,
    )
    zh_locale = Locale.objects.get(language_code="zh-hant")
    source, _created = TranslationSource.get_or_create_from_instance(page)
    translation = Translation.objects.create(source=source, target_locale=zh_locale)
    translation.save_target(publish=False)
    return page.get_translation(zh_locale)


@pytest.mark.parametrize("who", ["translator", "admin"])
def test_change_image_is_offered_only_to_administrators(
    new_browser_page,  # noqa: F811
    digest_with_a_figure,
    who,
):
    """Overriding a figure's image is refused to translators (cms.translation.policy.rules); the
    editor's JavaScript would offer its "Change image" to anyone who may edit the page."""
    browser_page = logged_in_page(new_browser_page, who)

    browser_page.goto(f"/admin/pages/{digest_with_a_figure.pk}/edit/")
    editor = browser_page.locator(".js-translation-editor")
    editor.get_by_text("Throughput", exact=True).first.wait_for()  # the caption, to translate
    change = editor.get_by_role("button", name="Change image")
    if who == "translator":
        assert change.count() == 0
    else:
        assert change.is_visible()


@pytest.fixture
def translated_paragraphs(seeded_live_server):
    """FabricPerf with a three-paragraph body, translated and live in zh-hant."""
    from wagtail.rich_text import RichText
    from wagtail_localize.models import StringSegment

    from cms.translation.workflow.prefill import prefill_page_translation

    english = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    english.body = [("paragraph", RichText(f"<p>{text}</p>")) for text in PARAGRAPHS]
    english.save_revision().publish()
    zh_locale = Locale.objects.get(language_code="zh-hant")
    zh = english.get_translation(zh_locale).specific
    source, _created = TranslationSource.update_or_create_from_instance(english)
    zh_by_en = {**dict(zip(PARAGRAPHS, PARAGRAPHS_ZH, strict=True)), english.title: zh.title}
    zh_by_en[english.summary] = zh.summary
    strings = {
        segment.context.path: zh_by_en[segment.string.data]
        for segment in StringSegment.objects.filter(source=source).select_related(
            "context", "string"
        )
    }
    prefill_page_translation(page=english, locale=zh_locale, strings_by_field=strings)
    return english.get_translation(zh_locale)


PARAGRAPHS = ["Alpha paragraph.", "Beta paragraph.", "Gamma paragraph."]
PARAGRAPHS_ZH = ["甲段落。", "乙段落。", "丙段落。"]


def test_a_disallowed_tag_is_refused_at_publish_naming_it_and_its_place(
    new_browser_page,  # noqa: F811
    translated_paragraphs,
    seeded_live_server,
):
    """The translator puts a heading tag in the second paragraph and publishes: told which tag
    is not allowed and in which paragraph (it used to say texts were not translated yet)."""
    from cms.translation.guard.places import SEPARATOR

    browser_page = logged_in_page(new_browser_page, "translator")
    browser_page.goto(f"/admin/pages/{translated_paragraphs.pk}/edit/")
    segment = browser_page.locator("li", has_text="Beta paragraph.").last
    segment.get_by_role("button", name="Edit").click()
    segment.locator("textarea").fill("<h1>乙段落。</h1>")
    browser_page.get_by_role("button", name="Save").click()
    browser_page.wait_for_selector("text=<h1> tag is not allowed", state="attached")
    browser_page.locator('button[name="action"][value="publish"]').click()
    message = browser_page.locator(".messages .error, .messages li.error").first
    message.wait_for()

    text = message.inner_text()
    assert "<h1> tag is not allowed" in text
    assert f"Body{SEPARATOR}Paragraph 2" in text
    assert "not translated yet" not in text
    response = browser_page.request.get(
        f"{seeded_live_server.url}/api/v2/pages/{translated_paragraphs.pk}/"
    )
    body = " ".join(block["value"] for block in response.json()["body"])
    assert "乙段落。" in body and "<h1>" not in body
