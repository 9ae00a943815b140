"""Log record fields that tie a line to the Celery task it was written in."""

import logging

from celery import current_task


class CeleryTaskFilter(logging.Filter):
    """Add `task_id` and `task_name` (None outside a task) to every record.

    django-guid carries the request id into tasks; this adds Celery's own task id, which is the
    id `celery inspect`, the result backend and retries use. Celery's TaskFormatter does the same
    for text logs only, hence this four-line filter for the JSON formatter.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        task = current_task if current_task and current_task.request.id else None
        record.task_id = task.request.id if task else None
        record.task_name = task.name if task else None
        return True


class GunicornAccessFields(logging.Filter):
    """Lift gunicorn's access-log atoms into fields, so each access line is queryable JSON.

    gunicorn passes them as the record's args dict; its text format has no JSON mode.
    """

    FIELDS = {
        "remote_addr": "h",
        "method": "m",
        "path": "U",
        "query": "q",
        "status": "s",
        "bytes": "B",
        "duration_ms": "M",
        "request_id": "{x-request-id}o",
        "user_agent": "a",
    }

    def filter(self, record: logging.LogRecord) -> bool:
        atoms = record.args if isinstance(record.args, dict) else {}
        for field, atom in self.FIELDS.items():
            setattr(record, field, atoms.get(atom))
        return True
