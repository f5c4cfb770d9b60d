import { describe, expect, it } from 'vitest';
import { renderNewsletter } from './render-newsletter';

describe('renderNewsletter', () => {
  it('renders headings, emphasis and our photos (View Content showed raw Markdown)', () => {
    const html = renderNewsletter('## Luis Rivera\n\n*Sunday*\n\n![Photo from Luis](/media/abc_123)');
    expect(html).toContain('<h2>Luis Rivera</h2>');
    expect(html).toContain('<em>Sunday</em>');
    expect(html).toContain('<img src="/media/abc_123" alt="Photo from Luis">');
  });

  it('keeps a member’s HTML as text and drops unsafe links and photos', () => {
    const html = renderNewsletter(
      '<script>alert(1)</script> <img src=x onerror=alert(1)>\n\n[click](javascript:alert(1)) ![x](http://evil/x.png) ![y](/etc/passwd)',
    );
    expect(html).not.toMatch(/<script|<img src=x|href="javascript/);
    expect(html).toContain('&lt;script&gt;');
    expect(html).not.toContain('/etc/passwd"');
    expect(html).toContain('src="http://evil/x.png"');
  });
});
