"""Fuzz the public API from its own OpenAPI description (schemathesis): no 5xx, no response
outside the description, a 405 with `Allow` to every method an operation does not list
(`unsupported_method`), and a 4xx to every request the description rules out
(`negative_data_rejection`). Bounded so it stays well under a few minutes.

The operations are driven from plain tests, because schemathesis's pytest plugin does not work
with this pytest version: Hypothesis directly for the fuzzing, and schemathesis's own test
builder for its coverage phase (the cases for undeclared methods and for each parameter's
invalid values, which a strategy alone never draws).
"""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from schemathesis.generation.hypothesis.builder import (
    HypothesisTestConfig,
    HypothesisTestMode,
    create_test,
)
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    negative_data_rejection,
    positive_data_acceptance,
    unsupported_method,
)

MAX_EXAMPLES = 15
FUZZ_SETTINGS = hypothesis_settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
# Every schema check runs except the "valid data must be accepted" heuristic: a well-formed id
# of a page that does not exist (descendant_of=293) is a documented 400, not a violation.
EXCLUDED = [positive_data_acceptance]
REFUSALS = [unsupported_method, negative_data_rejection]


@pytest.fixture
def keep_test_connection():
    """Like Django's test client: the WSGI app must not close the test transaction's connection."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def api_schema(keep_test_connection, settings):
    settings.API_RESPONSE_CACHE_SECONDS = 0
    return schemathesis.openapi.from_wsgi("/api/v2/schema/", get_wsgi_application())


def get_operations(schema):
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 8  # pages, papers, images, documents: list, detail, find
    assert {operation.method.upper() for operation in operations} == {"GET"}
    return operations


def generation_modes(operation) -> list[GenerationMode]:
    """Positive data, and negative data where there is something to make invalid: a path or
    query parameter (the API root's only one is a header that takes any string)."""
    locations = {parameter.location.value for parameter in operation.iter_parameters()}
    if locations - {"header"}:
        return [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]
    return [GenerationMode.POSITIVE]


@pytest.mark.django_db
def test_api_answers_as_described(api_schema):
    for operation in get_operations(api_schema):
        for mode in generation_modes(operation):

            @given(case=operation.as_strategy(generation_mode=mode))
            @FUZZ_SETTINGS
            def answers_as_described(case):
                case.call_and_validate(additional_checks=REFUSALS, excluded_checks=EXCLUDED)

            answers_as_described()


@pytest.mark.django_db
def test_api_refuses_what_it_does_not_describe(api_schema):
    """The coverage phase: each undeclared method (POST, PUT, PATCH, DELETE, QUERY, TRACE) and
    each parameter's invalid values, on every GET operation."""
    config = HypothesisTestConfig(
        project=api_schema.config, modes=[HypothesisTestMode.COVERAGE], settings=FUZZ_SETTINGS
    )
    methods = set()

    def refuses(case):
        methods.add((case.operation.label, case.method.upper()))
        case.call_and_validate(additional_checks=REFUSALS, excluded_checks=EXCLUDED)

    operations = get_operations(api_schema)
    for operation in operations:
        create_test(operation=operation, test_func=refuses, config=config)()
    for operation in operations:  # the phase really ran
        assert {(operation.label, "POST"), (operation.label, "DELETE")} <= methods
