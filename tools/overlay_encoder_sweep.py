"""The presenter kit's overlay encoder: CPU against size and quality, for each libvpx-vp9 setting.

    .venv/bin/python tools/overlay_encoder_sweep.py [SCENE] [--out build/overlay-sweep.json]

The overlay (pipeline/presenter/kit.py: make_overlay) is a transparent 1080p60 render encoded as VP9
with alpha. Manim's own settings leave libvpx at its slowest mode, which made the overlay most of a
kit's cost. This renders SCENE's transparent frames once, losslessly (QuickTime RLE), then encodes
the same frames with each setting in SETTINGS and records, per setting: the encoder's CPU seconds
(this process's, every thread, less the lossless decode's, measured alone), the file's bytes, and
the PSNR of the colour (Y) and alpha planes of every 30th frame against the lossless source
(decoded with libvpx-vp9, which keeps the alpha plane). The README's "Presenter kit" section
carries the table and says which setting kit.OVERLAY_VP9 uses and why. A developer tool: no build
or test needs it. Needs the scene's data (make) first.
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

# (name, options given to libvpx-vp9); "manim" is what Manim 0.21 passes (its "-auto-alt-ref" key has a
# leading dash FFmpeg does not know, so in effect: FFmpeg's defaults)
SETTINGS = [
    ("manim", {"-auto-alt-ref": "1"}),
    ("good cpu-used 2, crf 32", {"deadline": "good", "cpu-used": "2", "crf": "32", "b": "0"}),
    ("good cpu-used 4, crf 32", {"deadline": "good", "cpu-used": "4", "crf": "32", "b": "0"}),
    ("good cpu-used 5, crf 32", {"deadline": "good", "cpu-used": "5", "crf": "32", "b": "0"}),
    ("good cpu-used 5, crf 32, row-mt", {"deadline": "good", "cpu-used": "5", "crf": "32", "b": "0", "row-mt": "1"}),
    ("realtime cpu-used 8, crf 32", {"deadline": "realtime", "cpu-used": "8", "crf": "32", "b": "0"}),
]
EVERY = 30  # frames between two quality samples


def cpu() -> float:
    use = resource.getrusage(resource.RUSAGE_SELF)
    return use.ru_utime + use.ru_stime


def lossless_frames(scene_id: str, work: Path) -> tuple[Path, float]:
    """SCENE's transparent render at hd as QuickTime RLE (lossless, with alpha); its CPU seconds."""
    from pipeline.jsonio import load_ref
    from pipeline.catalogue import load
    from pipeline.presenter import kit

    scene = next(s for s in load().built if s.id == scene_id)
    cls = load_ref(scene.scene)
    cls.data_dir = paths.DATA
    c0 = cpu()
    kit._render(cls, scene_id, presets.PRESETS["hd"], work, format="mov", transparent=True, verbosity="ERROR")
    return kit._one(work, f"{scene_id}.mov", "lossless render"), cpu() - c0


def decode_only(src: Path) -> float:
    import av

    c0 = cpu()
    with av.open(str(src)) as c:
        for frame in c.decode(video=0):
            frame.to_ndarray(format="rgba")
    return cpu() - c0


def encode(src: Path, dest: Path, options: dict) -> tuple[float, list]:
    """src's frames -> dest (VP9, yuva420p, WebM); CPU seconds, and every EVERY-th source frame (RGBA)."""
    import av

    samples = []
    c0 = cpu()
    with av.open(str(src)) as inp, av.open(str(dest), mode="w") as out:
        s_in = inp.streams.video[0]
        stream = out.add_stream("libvpx-vp9", rate=s_in.average_rate, options=options)
        stream.pix_fmt, stream.width, stream.height = "yuva420p", s_in.width, s_in.height
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


def quality(dest: Path, samples: list) -> dict:
    """PSNR of luma (from RGB) and alpha, every EVERY-th frame, against the lossless source."""
    import av
    import numpy as np

    def luma(rgba):
        return 0.2126 * rgba[..., 0] + 0.7152 * rgba[..., 1] + 0.0722 * rgba[..., 2]

    frames = []
    with av.open(str(dest)) as c:
        dec = av.CodecContext.create("libvpx-vp9", "r")
        for packet in c.demux(c.streams.video[0]):
            for f in dec.decode(packet if packet.size else None):
                frames.append(f)
    got = [frames[i * EVERY].to_ndarray(format="rgba") for i in range(len(samples))]
    return {"psnr_y_db": round(float(np.mean([psnr(luma(a), luma(b)) for a, b in zip(samples, got)])), 2),
            "psnr_alpha_db": round(float(np.mean([min(psnr(a[..., 3], b[..., 3]), 99.0)
                                                  for a, b in zip(samples, got)])), 2)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scene", nargs="?", default="capex-opex-tco")
    ap.add_argument("--out", default=str(paths.BUILD / "overlay-sweep.json"))
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="overlay-sweep-", dir=paths.BUILD))
    try:
        src, render_cpu = lossless_frames(args.scene, work)
        decode_cpu = decode_only(src)
        import av

        with av.open(str(src)) as c:
            frames = c.streams.video[0].frames
            seconds = float(c.duration) / 1e6
        rows = []
        for name, options in SETTINGS:
            dest = work / f"sweep-{len(rows)}.webm"
            used, samples = encode(src, dest, options)
            row = {"setting": name, "options": options, "encode_cpu_s": round(used - decode_cpu, 1),
                   "encode_cpu_s_per_video_s": round((used - decode_cpu) / seconds, 2),
                   "bytes": dest.stat().st_size, **quality(dest, samples)}
            rows.append(row)
            print(f"{name:36} {row['encode_cpu_s']:8.1f} CPU-s {row['bytes']:>12,} B  "
                  f"Y {row['psnr_y_db']:6.2f} dB  alpha {row['psnr_alpha_db']:6.2f} dB", flush=True)
        result = {"scene": args.scene, "frames": frames, "video_s": round(seconds, 3),
                  "render_cpu_s": round(render_cpu, 1), "decode_cpu_s": round(decode_cpu, 1), "settings": rows}
        Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
        print(f"lossless render {render_cpu:.1f} CPU-s for {seconds:.1f} s of video; written to {args.out}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
