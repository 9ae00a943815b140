"""HTTP to gunicorn as the TLS-terminating proxy forwards it."""

from __future__ import annotations

import requests

from .runner import StepFailed

PUBLIC_HOST = "cms.smoke.test"
PUBLIC_ORIGIN = f"https://{PUBLIC_HOST}"
CLIENT_ADDRESS = "203.0.113.7"  # the client the proxy reports in X-Forwarded-For


class ProxyClient:
    """Requests with the public Host, X-Forwarded-Proto: https and X-Forwarded-For.

    Django marks its cookies Secure, which `requests` would not send back over the plain-HTTP
    hop to gunicorn, so the session's cookies are kept and sent here.
    """

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.cookies: dict[str, str] = {}
        self.set_cookies: dict[str, str] = {}  # the raw Set-Cookie header, by cookie name

    def request(self, method: str, path: str, *, https: bool = True, **kwargs) -> requests.Response:
        headers = {"Host": PUBLIC_HOST, "X-Forwarded-For": CLIENT_ADDRESS}
        if https:
            headers["X-Forwarded-Proto"] = "https"
        headers.update(kwargs.pop("headers", {}))
        response = requests.request(
            method,
            self.base_url + path,
            headers=headers,
            cookies=self.cookies,
            allow_redirects=False,
            timeout=30,
            **kwargs,
        )
        for cookie in response.cookies:
            self.cookies[cookie.name] = cookie.value
        for raw in response.raw.headers.getlist("Set-Cookie"):
            self.set_cookies[raw.split("=", 1)[0]] = raw
        return response

    def get_json(self, path: str) -> dict:
        response = self.request("GET", path)
        if response.status_code != 200:
            raise StepFailed(f"GET {path}: {response.status_code} {response.text[:300]}")
        return response.json()
