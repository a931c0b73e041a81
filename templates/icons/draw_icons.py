"""Redraws the bundled PNG icons (run once by hand: `python templates/icons/draw_icons.py`).

Drawn at 4× and downsampled so edges stay smooth at 300 dpi; 256 px covers a 20 mm icon.
"""

from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).resolve().parent
S = 1024  # drawing size; saved at 256 px


def _save(img: Image.Image, name: str) -> None:
    img.resize((256, 256), Image.Resampling.LANCZOS).save(HERE / name, optimize=True)


def coin() -> None:
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((40, 40, S - 40, S - 40), fill=(176, 128, 24, 255))
    d.ellipse((90, 90, S - 90, S - 90), fill=(232, 182, 52, 255))
    d.ellipse((170, 170, S - 170, S - 170), outline=(176, 128, 24, 255), width=36)
    d.rectangle((S // 2 - 40, 300, S // 2 + 40, S - 300), fill=(176, 128, 24, 255))
    _save(img, "coin.png")


def food() -> None:
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.ellipse((110, 250, 560, 930), fill=(196, 40, 40, 255))   # apple, two lobes
    d.ellipse((460, 250, 910, 930), fill=(196, 40, 40, 255))
    d.ellipse((250, 330, 420, 500), fill=(232, 110, 100, 255))  # highlight
    d.rectangle((490, 90, 540, 320), fill=(96, 60, 20, 255))     # stem
    d.ellipse((540, 110, 820, 260), fill=(60, 150, 60, 255))     # leaf
    _save(img, "food.png")


def sword() -> None:
    img = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    blade = [(S // 2 - 60, 700), (S // 2 - 60, 160), (S // 2, 40), (S // 2 + 60, 160),
             (S // 2 + 60, 700)]
    d.polygon(blade, fill=(150, 160, 175, 255))
    d.polygon([(S // 2, 40), (S // 2 + 60, 160), (S // 2 + 60, 700), (S // 2, 700)],
              fill=(200, 208, 220, 255))
    d.rectangle((S // 2 - 230, 700, S // 2 + 230, 770), fill=(120, 80, 30, 255))  # guard
    d.rectangle((S // 2 - 45, 770, S // 2 + 45, 940), fill=(90, 55, 25, 255))    # grip
    d.ellipse((S // 2 - 75, 920, S // 2 + 75, 1010), fill=(120, 80, 30, 255))    # pommel
    img = img.rotate(-45, resample=Image.Resampling.BICUBIC, center=(S // 2, S // 2))
    _save(img, "sword.png")


if __name__ == "__main__":
    coin()
    food()
    sword()
