"""Suite-wide fixtures: the seed content is imported once per test database.

Tests run inside a transaction that is rolled back, so each one starts from the seeded site.
"""

import pytest
from django.core.management import call_command


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        call_command("import_digests", verbosity=0)


@pytest.fixture
def seed_path():
    from cms.digests.seed import DEFAULT_SEED_PATH

    return DEFAULT_SEED_PATH
