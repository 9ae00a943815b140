"""What the tests share: factories, and (after the reorganisation) the other helpers."""
