"""deploy/compose.yaml is a valid Compose file, as used after `cp .env.example .env`."""

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def compose_command() -> list[str]:
    """`docker compose` (v2 plugin) if present, else Debian's docker-compose (make deploy-tools)."""
    if shutil.which("docker"):
        plugin = subprocess.run(["docker", "compose", "version"], capture_output=True, check=False)
        if plugin.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    pytest.fail("Neither `docker compose` nor `docker-compose` is installed (make deploy-tools).")


def compose_config(directory: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*compose_command(), "-f", "compose.yaml", "config"],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def deploy_copy(tmp_path: Path) -> Path:
    shutil.copy(DEPLOY / "compose.yaml", tmp_path / "compose.yaml")
    shutil.copy(DEPLOY / ".env.example", tmp_path / ".env")
    return tmp_path


def test_compose_config_validates(deploy_copy):
    result = compose_config(deploy_copy)

    assert result.returncode == 0, result.stderr
    config = yaml.safe_load(result.stdout)
    assert set(config["services"]) == {"migrate", "web", "worker", "beat", "db", "redis"}
    for name in ("web", "worker", "beat", "migrate"):
        environment = config["services"][name]["environment"]
        assert environment["DJANGO_SETTINGS_MODULE"] == "cms.settings.production"
        assert environment["DATABASE_URL"].startswith("postgres://cms:")
        assert environment["REDIS_URL"] == "redis://redis:6379/0"
    assert "/readyz" in " ".join(config["services"]["web"]["healthcheck"]["test"])
    assert "worker_health" in " ".join(config["services"]["worker"]["healthcheck"]["test"])


def test_an_invalid_file_is_rejected(deploy_copy):
    """The check has teeth: a misspelt dependency condition fails validation."""
    text = (deploy_copy / "compose.yaml").read_text()
    (deploy_copy / "compose.yaml").write_text(
        text.replace("condition: service_healthy", "condition: when_ready", 1)
    )

    assert compose_config(deploy_copy).returncode != 0
