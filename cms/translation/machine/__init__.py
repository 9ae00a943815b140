"""Machine translators, guarded so that no Simplified text reaches a zh-hant page."""
