"""Print the form fields of a PDF, one per line."""
import sys

from pypdf import PdfReader


def main(path: str) -> None:
    reader = PdfReader(path)
    for name, field in (reader.get_fields() or {}).items():
        print(f"{name}\t{field.get('/FT')}\t{field.get('/V')}")


if __name__ == "__main__":
    main(sys.argv[1])
