"""The pure rules of a firing: plan (match, de-duplicate), chain, interpret an answer, merge
answers.

Nothing in this package does I/O, reads the clock or starts a thread (a test guards it)."""
