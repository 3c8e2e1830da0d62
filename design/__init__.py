"""What scenes, figures and the site all draw from, owned by none of them.

- `palette`: colours, with roles named by meaning (design/palette.py);
- `fonts`: the bundled Inter font files (design/fonts/, SIL OFL);
- `sizes`: text sizes and the frame's safe and caption bands;
- `css`: the site's CSS custom properties, generated from the palette.

Pure data and stdlib: importing this never pulls in Manim or matplotlib.
"""
