"""A tiny application the example hooks protect."""


def greet(name: str) -> str:
    return f"Hello, {name}!"
