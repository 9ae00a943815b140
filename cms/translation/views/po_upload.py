"""The translation editor's "Upload PO file", refusing what is not a PO file of this translation.

wagtail-localize's upload_pofile reads `request.FILES["file"]` and the file's
`X-WagtailLocalize-TranslationID` header unchecked, so a post without a file or without the
header answers 500 and leaves its copy of the upload in the temp directory; nor is there a size
limit. This view is served at the same admin URL (cms.translation.wagtail_hooks) and refuses with
a 400 naming what is wrong, in the admin's language: no file, a file over PO_UPLOAD_MAX_BYTES, a
file polib cannot read, no translation id, another translation's id. The temporary copy polib
reads is removed whatever happens, and the import runs in one transaction, so a refused or
failing upload changes nothing.
"""

import os
import tempfile

import polib
from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from wagtail.admin.utils import get_valid_next_url_from_request
from wagtail_localize.models import Translation
from wagtail_localize.views.edit_translation import user_can_edit_instance

from cms.translation.status.tool_names import PO_FILE

# The header wagtail-localize writes into every PO file it exports (Translation.export_po).
TRANSLATION_ID_HEADER = "X-WagtailLocalize-TranslationID"


class Refusal(ValueError):
    """An upload that cannot be imported; its message says why, for the translator."""


def bad_request(request: HttpRequest, message: str) -> HttpResponseBadRequest:
    """The refusal as a short page: the editor posts the upload as a plain form, so the
    translator sees this page, with a way back to the translation editor (`next`)."""
    back = get_valid_next_url_from_request(request) or reverse("wagtailadmin_home")
    body = format_html(
        '<!DOCTYPE html><html lang="{}"><meta charset="utf-8"><title>{}</title>'
        '<p>{}</p><p><a href="{}">{}</a></p></html>',
        get_language(),
        _("Upload PO file"),
        message,
        back,
        _("Back to the translation"),
    )
    return HttpResponseBadRequest(body)


def read_po(upload) -> polib.POFile:
    """The uploaded PO file, parsed from a temporary copy that is always removed.

    polib.pofile takes either a file name or contents and decides by whether a file of that
    name exists, so an upload's text is never handed to it directly (it could name a file on
    the server); it reads a copy instead.
    """
    limit = settings.PO_UPLOAD_MAX_BYTES
    if upload.size > limit:
        raise Refusal(
            _("The file is %(size)s bytes, over the PO upload limit of %(limit)s bytes.")
            % {"size": f"{upload.size:,}", "limit": f"{limit:,}"}
        )
    with tempfile.NamedTemporaryFile(suffix=".po", delete=False) as copy:
        name = copy.name
    try:
        with open(name, "wb") as out:
            for chunk in upload.chunks():
                out.write(chunk)
        try:
            return polib.pofile(name)
        except (OSError, UnicodeDecodeError, ValueError) as error:  # polib parse errors: OSError
            raise Refusal(_("This is not a PO file: %(error)s") % {"error": error}) from error
    finally:
        os.unlink(name)


def check_translation_id(po: polib.POFile, translation: Translation) -> None:
    translation_id = po.metadata.get(TRANSLATION_ID_HEADER)
    if not translation_id:
        raise Refusal(
            _(
                "The PO file has no %(header)s header: download the PO file of this "
                "translation, translate it and upload that."
            )
            % {"header": TRANSLATION_ID_HEADER}
        )
    if translation_id != str(translation.uuid):
        raise Refusal(
            _(
                "The PO file's %(header)s header names another translation: download the PO "
                "file of this translation, translate it and upload that."
            )
            % {"header": TRANSLATION_ID_HEADER}
        )


@require_POST
def upload_pofile(request: HttpRequest, translation_id: int) -> HttpResponse:
    """Import the translations of an uploaded PO file, or answer 400 saying why not."""
    translation = get_object_or_404(Translation, id=translation_id)
    if not user_can_edit_instance(request.user, translation.get_target_instance()):
        raise PermissionDenied
    upload = request.FILES.get("file")
    try:
        if upload is None:
            raise Refusal(_("No file was uploaded: choose a PO file to upload."))
        po = read_po(upload)
        check_translation_id(po, translation)
    except Refusal as refusal:
        return bad_request(request, str(refusal))
    with transaction.atomic():
        translation.import_po(po, user=request.user, tool_name=PO_FILE)
    messages.success(request, _("Successfully imported translations from PO File."))
    return redirect(get_valid_next_url_from_request(request) or reverse("wagtailadmin_home"))
