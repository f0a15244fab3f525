"""Where the repository and the card's own files are, for the Image suite's modules: computed once
here (each step module had its own copy, and boot_health_step cannot import image_vm's, which
imports it)."""
import os

#: The repository's root (this file is Tests/Image/repo_paths.py).
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: The card's files that scripts/image installs (deploy/card).
CARD_FILES = os.path.join(REPO, "deploy", "card")
