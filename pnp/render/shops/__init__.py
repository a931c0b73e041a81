"""Files as print shops take them: shop profiles (profile.py), delivery (deliver.py)."""
