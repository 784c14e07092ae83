// Package noexposedpii implements the no-exposed-pii check.
package noexposedpii

// Doc is the check's documentation.
const Doc = `Warns on personal data shipped in text files: US social security numbers
with separators (area not 000, 666 or 9xx; group not 00; serial not
0000), payment card numbers of 13 to 19 digits (single space or hyphen
separators) that pass the Luhn check with a known issuer prefix, and IBANs
with a valid mod-97 check and their country's length. Published test card
numbers, digits inside longer runs, versions, timestamps, UUIDs and hashes
pass. Evidence names the kind and place, never the value. Never fails.`

// Remediation says how to fix a finding.
const Remediation = `Remove the data or replace it with synthetic values.`
