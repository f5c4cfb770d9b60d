import { encodePng } from './encode-png';

type Rgb = readonly [number, number, number];

/** A made-up landscape: a sky, a sun or moon, and rolling layers of land or water. */
export interface DemoScene {
  sky: readonly [Rgb, Rgb];
  sun: { x: number; y: number; r: number; color: Rgb };
  /** Front-most last. `base` and `amp` are fractions of the height; `freq` is waves across. */
  layers: readonly { color: Rgb; base: number; amp: number; freq: number; phase: number }[];
  /** Little dots on the front layer: flowers, shells, leaves. */
  dots?: { color: Rgb; count: number };
}

const WIDTH = 480;
const HEIGHT = 360;

const mix = (a: Rgb, b: Rgb, t: number): Rgb => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t];

/** Draws a scene as a PNG photo (no image library, no network: the demo ships no files). */
export function drawDemoPhoto(scene: DemoScene): Buffer {
  const pixels = new Uint8Array(WIDTH * HEIGHT * 3);
  const put = (x: number, y: number, c: Rgb) => {
    const i = (y * WIDTH + x) * 3;
    pixels[i] = c[0];
    pixels[i + 1] = c[1];
    pixels[i + 2] = c[2];
  };
  const heightOf = (layer: DemoScene['layers'][number], x: number) =>
    HEIGHT * (layer.base - layer.amp * Math.sin((x / WIDTH) * Math.PI * 2 * layer.freq + layer.phase));

  for (let y = 0; y < HEIGHT; y += 1) {
    for (let x = 0; x < WIDTH; x += 1) {
      let color = mix(scene.sky[0], scene.sky[1], y / HEIGHT);
      const { sun } = scene;
      const d = Math.hypot(x - sun.x * WIDTH, y - sun.y * HEIGHT);
      const r = sun.r * HEIGHT;
      if (d < r) color = sun.color;
      else if (d < r * 2.2) color = mix(color, sun.color, 0.25 * (1 - (d - r) / (r * 1.2)));
      for (const [index, layer] of scene.layers.entries()) {
        const top = heightOf(layer, x);
        // Lighter toward its crest, so hills look rounded.
        if (y >= top)
          color = mix(layer.color, [0, 0, 0], Math.min(0.25, (y - top) / HEIGHT) * (index === scene.layers.length - 1 ? 1 : 0.5));
      }
      put(x, y, [Math.round(color[0]), Math.round(color[1]), Math.round(color[2])]);
    }
  }

  const front = scene.layers.at(-1);
  if (scene.dots && front) {
    // A fixed sequence, so the same scene is always the same picture.
    let seed = 7;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    for (let n = 0; n < scene.dots.count; n += 1) {
      const cx = Math.floor(next() * WIDTH);
      const top = heightOf(front, cx);
      const cy = Math.floor(top + 8 + next() * (HEIGHT - top - 12));
      for (let dy = -3; dy <= 3; dy += 1) {
        for (let dx = -3; dx <= 3; dx += 1) {
          const x = cx + dx;
          const y = cy + dy;
          if (dx * dx + dy * dy <= 9 && x >= 0 && x < WIDTH && y >= 0 && y < HEIGHT) put(x, y, scene.dots.color);
        }
      }
    }
  }
  return encodePng({ width: WIDTH, height: HEIGHT, pixels });
}
