from setuptools import setup

setup(
    name="weather-mcp",
    version="0.1.0",
    install_requires=[
        "mcp==1.9.0",
        "reqeusts>=2.31",
    ],
)
