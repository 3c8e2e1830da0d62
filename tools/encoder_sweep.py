"""The renders' encoders: CPU against size and quality, for each x264 preset and each libvpx-vp9 setting.

    .venv/bin/python tools/encoder_sweep.py [SCENE] [--preset hd] [--out build/encoder-sweep.json]

A render's cost is mostly its encoder, not its drawing: at hd, Cairo draws a scene's frames in a few
CPU seconds and the encode takes the rest (README "Presenter kit" has the numbers). This renders
SCENE's transparent frames once, losslessly (QuickTime RLE, with alpha), then encodes the same
frames with each setting, on one codec thread as every render encodes (scenes/style.py:
reproducible), and records per setting: the encoder's CPU seconds (this process's, every thread,
less the lossless decode's, measured alone), the file's bytes, and the PSNR of luma (and for VP9
the alpha plane) of every 30th frame against the source (VP9 decoded with libvpx-vp9, which keeps
the alpha plane).

- X264: the opaque movies (site, kit, 4k master): the frames over the scenes' background, yuv420p,
  crf 23 (Manim's), the x264 preset swept; `scenes/style.py: X264_PRESET` is the one chosen.
- VP9: the transparent overlay, yuva420p; Manim's own settings leave FFmpeg's defaults (libvpx's
  slowest mode at its default bitrate); `pipeline/presenter/kit.py: OVERLAY_VP9` is the one chosen.

One codec thread, so libvpx's row-based multithreading has nothing to share out and is not swept.
A developer tool: no build or test needs it. Needs the scene's data (make) first.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline import paths  # noqa: E402
from pipeline.engine import presets  # noqa: E402

# (name, options given to libx264), crf 23 and the portable arithmetic as every render encodes
X264 = [(f"x264 {p}", {"crf": "23", "preset": p, "x264-params": "cpu-independent=1"})
        for p in ("medium", "fast", "faster", "veryfast", "superfast", "ultrafast")]
# (name, options given to libvpx-vp9); "manim" is what Manim 0.21 passes (its "-auto-alt-ref" key has a
# leading dash FFmpeg does not know, so in effect: FFmpeg's defaults)
VP9 = [
    ("manim", {"-auto-alt-ref": "1"}),
    ("good cpu-used 2, crf 32", {"deadline": "good", "cpu-used": "2", "crf": "32", "b": "0"}),
    ("good cpu-used 4, crf 32", {"deadline": "good", "cpu-used": "4", "crf": "32", "b": "0"}),
    ("good cpu-used 5, crf 32", {"deadline": "good", "cpu-used": "5", "crf": "32", "b": "0"}),
    *[(f"realtime cpu-used {c}, crf 32", {"deadline": "realtime", "cpu-used": str(c), "crf": "32", "b": "0"})
      for c in (6, 7, 8)],
]
EVERY = 30  # frames between two quality samples


def cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def lossless_frames(scene_id: str, preset: str, work: Path) -> tuple[Path, float]:
    """SCENE's transparent render at `preset` as QuickTime RLE (lossless, with alpha); its CPU seconds."""
    from pipeline.catalogue import load
    from pipeline.jsonio import load_ref
    from pipeline.presenter import kit

    scene = next(s for s in load().built if s.id == scene_id)
    cls = load_ref(scene.scene)
    cls.data_dir = paths.DATA
    c0 = cpu()
    kit._render(cls, scene_id, presets.PRESETS[preset], work, format="mov", transparent=True, verbosity="ERROR")
    return kit._one(work, f"{scene_id}.mov", "lossless render"), cpu() - c0


def opaque_source(src: Path, dest: Path) -> Path:
    """src's frames laid over the background, once, into a lossless RGB movie (QuickTime RLE): what the
    x264 settings encode (the compositing costs more than a fast encode, so it is not repeated)."""
    import av

    with av.open(str(src)) as inp, av.open(str(dest), mode="w") as out:
        s_in = inp.streams.video[0]
        stream = out.add_stream("qtrle", rate=s_in.average_rate)
        stream.pix_fmt, stream.width, stream.height = "rgb24", s_in.width, s_in.height
        for frame in inp.decode(s_in):
            rgb = over_background(frame.to_ndarray(format="rgba"))[..., :3]
            out.mux(stream.encode(av.VideoFrame.from_ndarray(rgb.copy(), format="rgb24")))
        out.mux(stream.encode(None))
    return dest


def decode_only(src: Path) -> float:
    """The CPU seconds of reading the source's frames as `encode` reads them, without encoding:
    subtracted from each setting's."""
    import av

    c0 = cpu()
    with av.open(str(src)) as c:
        for frame in c.decode(video=0):
            frame.to_ndarray(format="rgba")
    return cpu() - c0


def over_background(rgba):
    """A transparent frame laid over the scenes' background: the opaque frame (straight alpha)."""
    import numpy as np

    from design import palette

    bg = np.array([int(palette.VIDEO["bg"][i:i + 2], 16) for i in (1, 3, 5)], dtype=np.float32)
    a = rgba[..., 3:4].astype(np.float32) / 255.0
    out = rgba.copy()
    out[..., :3] = np.round(rgba[..., :3] * a + bg * (1 - a)).astype(np.uint8)
    out[..., 3] = 255
    return out


def encode(src: Path, dest: Path, codec: str, options: dict) -> tuple[float, list]:
    """src's frames -> dest (x264 yuv420p, or VP9 yuva420p); CPU seconds, and every EVERY-th frame (RGBA)."""
    import av

    samples = []
    c0 = cpu()
    with av.open(str(src)) as inp, av.open(str(dest), mode="w") as out:
        s_in = inp.streams.video[0]
        stream = out.add_stream(codec, rate=s_in.average_rate, options=options)
        stream.pix_fmt = "yuva420p" if codec == "libvpx-vp9" else "yuv420p"
        stream.width, stream.height = s_in.width, s_in.height
        stream.codec_context.thread_count = 1  # as every render encodes (scenes/style.py: reproducible)
        for i, frame in enumerate(inp.decode(s_in)):
            rgba = frame.to_ndarray(format="rgba")
            if i % EVERY == 0:
                samples.append(rgba)
            out.mux(stream.encode(av.VideoFrame.from_ndarray(rgba, format="rgba")))
        out.mux(stream.encode(None))
    return cpu() - c0, samples


def psnr(a, b) -> float:
    import numpy as np

    mse = float(np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2))
    return float("inf") if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)


def quality(dest: Path, samples: list, codec: str) -> dict:
    """PSNR of luma (from RGB) and, for VP9, alpha, every EVERY-th frame, against the lossless source."""
    import av
    import numpy as np

    def luma(rgba):
        return 0.2126 * rgba[..., 0] + 0.7152 * rgba[..., 1] + 0.0722 * rgba[..., 2]

    frames = []
    with av.open(str(dest)) as c:
        if codec != "libvpx-vp9":
            frames = list(c.decode(video=0))
        else:  # FFmpeg's own VP9 decoder drops the alpha plane
            dec = av.CodecContext.create("libvpx-vp9", "r")
            for packet in c.demux(c.streams.video[0]):
                frames += dec.decode(packet if packet.size else None)
    got = [frames[i * EVERY].to_ndarray(format="rgba") for i in range(len(samples))]
    out = {"psnr_y_db": round(float(np.mean([min(psnr(luma(a), luma(b)), 99.0) for a, b in zip(samples, got)])), 2)}
    if codec == "libvpx-vp9":
        out["psnr_alpha_db"] = round(float(np.mean([min(psnr(a[..., 3], b[..., 3]), 99.0)
                                                   for a, b in zip(samples, got)])), 2)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scene", nargs="?", default="capex-opex-tco")
    ap.add_argument("--preset", default="hd", choices=sorted(presets.PRESETS))
    ap.add_argument("--only", choices=("x264", "vp9"), default=None, help="one codec's settings only")
    ap.add_argument("--match", default="", help="only the settings whose name contains this")
    ap.add_argument("--out", default=str(paths.BUILD / "encoder-sweep.json"))
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="encoder-sweep-", dir=paths.BUILD))
    try:
        src, render_cpu = lossless_frames(args.scene, args.preset, work)
        import av

        with av.open(str(src)) as c:
            frames = c.streams.video[0].frames
            seconds = float(c.duration) / 1e6
        rows = []
        sweeps = [("libx264", ".mp4", X264), ("libvpx-vp9", ".webm", VP9)]
        for codec, ext, settings in sweeps:
            if args.only and args.only not in codec:
                continue
            frames_in = src if codec == "libvpx-vp9" else opaque_source(src, work / "opaque.mov")
            decode_cpu = decode_only(frames_in)
            for name, options in [x for x in settings if args.match in x[0]]:
                dest = work / f"sweep-{len(rows)}{ext}"
                used, samples = encode(frames_in, dest, codec, options)
                row = {"setting": name, "options": options, "encode_cpu_s": round(used - decode_cpu, 1),
                       "encode_cpu_s_per_video_s": round((used - decode_cpu) / seconds, 2),
                       "bytes": dest.stat().st_size, **quality(dest, samples, codec)}
                rows.append(row)
                alpha = f"  alpha {row['psnr_alpha_db']:6.2f} dB" if "psnr_alpha_db" in row else ""
                print(f"{name:36} {row['encode_cpu_s']:8.1f} CPU-s {row['bytes']:>12,} B  "
                      f"Y {row['psnr_y_db']:6.2f} dB{alpha}", flush=True)
        result = {"scene": args.scene, "preset": args.preset, "frames": frames, "video_s": round(seconds, 3),
                  "render_cpu_s": round(render_cpu, 1), "settings": rows}
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
        print(f"lossless render {render_cpu:.1f} CPU-s for {seconds:.1f} s of video; written to {args.out}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
