/** Whether the bytes start as a JPEG does (SOI, then a marker): content sniffing, never a name or declared type. */
export const isJpeg = (b: Uint8Array): boolean => b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
