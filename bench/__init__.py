"""`make bench`: the measurements of issue 6, run side by side with their baselines."""
