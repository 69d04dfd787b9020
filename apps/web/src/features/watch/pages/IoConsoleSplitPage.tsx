// Being built (issue #16): replaced by the screen itself before this lands.
export default function IoConsoleSplitPage() {
  return null;
}
