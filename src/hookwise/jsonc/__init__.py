"""JSON with comments: parsing with positions (``parse``) and comment-preserving edits
(``edit``)."""
