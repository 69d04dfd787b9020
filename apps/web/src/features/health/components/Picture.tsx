import { Avatar, Image } from 'antd';
import { PictureOutlined } from '@ant-design/icons';

/** A record's capture photo as a thumbnail (opens large), or a placeholder, like the punch records. */
export function Picture({ url, alt }: { url: string; alt: string }) {
  return url ? (
    <Image src={url} width={40} height={40} style={{ objectFit: 'cover', borderRadius: 4 }} alt={alt} data-testid="record-photo" />
  ) : (
    <Avatar shape="square" size={40} icon={<PictureOutlined />} />
  );
}
