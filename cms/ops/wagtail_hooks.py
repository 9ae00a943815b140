"""Operations screens in Wagtail's admin."""

from wagtail import hooks

from .lockouts import LoginLockoutViewSet


@hooks.register("register_admin_viewset")
def register_login_lockouts() -> LoginLockoutViewSet:
    return LoginLockoutViewSet("login_lockouts")
