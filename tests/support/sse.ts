// Reading a server-sent event stream in tests: the events (name and JSON data) until a condition holds or the stream ends.
export async function readSse(res: Response, until: (events: { event: string; data: any }[]) => boolean): Promise<{ event: string; data: any }[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const got: { event: string; data: any }[] = [];
  while (!until(got)) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = buffer.indexOf('\n\n')) >= 0) {
      const chunk = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const ev = /^event: (.*)$/m.exec(chunk)?.[1];
      const data = /^data: (.*)$/m.exec(chunk)?.[1];
      if (ev && data) got.push({ event: ev, data: JSON.parse(data) });
    }
  }
  await reader.cancel();
  return got;
}
