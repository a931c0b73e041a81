"""Files as print shops take them: shop profiles (profile.py), delivery (deliver.py), CMYK
and PDF/X-1a (pdfx.py with pnp's ICC profile, icc.py) and the shop preflight (check.py)."""
