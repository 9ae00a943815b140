"""The admin screens and endpoints translators and editors use, each asking the policy."""
