"""The zh-Hant guard: Simplified characters and untranslated English, found and placed."""
