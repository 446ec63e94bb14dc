"""The local-search engine: compiled move scans over the current network and the
candidate-parent screen that restricts them."""
