"""Fill a PDF form from a JSON file of field values."""
import json
import sys

from pypdf import PdfReader, PdfWriter


def main(src: str, values_path: str, dst: str) -> None:
    with open(values_path, encoding="utf-8") as f:
        values = json.load(f)
    writer = PdfWriter(clone_from=PdfReader(src))
    for page in writer.pages:
        writer.update_page_form_field_values(page, values)
    with open(dst, "wb") as out:
        writer.write(out)


if __name__ == "__main__":
    main(*sys.argv[1:4])
