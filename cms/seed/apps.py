from django.apps import AppConfig


class SeedConfig(AppConfig):
    name = "cms.seed"
