import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type ReactNode, type Ref } from 'react';
import { createPortal } from 'react-dom';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import type { PlacementKind, SiteDetail } from '@faceadmin/shared';
import { itemKey, labelSides, modeOf, planSpot, planToLatLng, tileSpot } from '../logic.ts';

/** What a list item carries while it is dragged onto the map. */
export const DRAG_TYPE = 'application/x-faceadmin-map-item';

export interface SiteMapHandle {
  /** The spot in the middle of the current view (where a tap-to-place puts an item), undefined without a map. */
  centre(): { x: number; y: number } | undefined;
}

interface Props {
  site: SiteDetail;
  canEdit: boolean;
  /** item keys shown red whatever their state (a live alarm not yet looked at) */
  alarmed: ReadonlySet<string>;
  /** the item whose popup is open */
  selected: string | undefined;
  onSelect: (key: string | undefined) => void;
  /** the open popup's content (rendered into Leaflet's popup) */
  popup: ReactNode;
  onPlace: (kind: PlacementKind, refId: number, x: number, y: number) => void;
  /** a drop or a drag that ended off the plan */
  onOffPlan: () => void;
  ref?: Ref<SiteMapHandle>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const iconHtml = (kind: string, state: string, name: string) =>
  `<span class="fa-map-dot fa-map-dot--${kind} fa-map-dot--${state}"></span><span class="fa-map-label">${escapeHtml(name)}</span>`;

/**
 * The site's map: its floor plan on Leaflet's pixel coordinate system (CRS.Simple, an image overlay the size of
 * the plan), or a tile map when the site has a tile URL. Markers are coloured by state and draggable for an
 * editor; list items dropped on the map are placed where they fall (containerPointToLatLng).
 */
export function SiteMap({ site, canEdit, alarmed, selected, onSelect, popup, onPlace, onOffPlan, ref }: Props) {
  const el = useRef<HTMLDivElement>(null);
  const mapRef = useRef<L.Map | null>(null);
  const layerRef = useRef<L.LayerGroup | null>(null);
  const markers = useRef(new Map<string, { marker: L.Marker; html: string }>());
  const popupRef = useRef<L.Popup | null>(null);
  /** markers being dragged: a refetch does not pull them back mid-drag */
  const dragging = useRef(new Set<string>());
  /** the item the popup was last opened for (a new choice pans the map to it) */
  const shownFor = useRef<string | undefined>(undefined);
  const popupEl = useMemo(() => document.createElement('div'), []);
  // bumps when a new Leaflet map was made, so the markers are drawn onto it
  const [mapVersion, setMapVersion] = useState(0);
  const mode = modeOf(site);
  const height = site.image_height;

  const toLatLng = (x: number, y: number): L.LatLngExpression => (mode === 'plan' ? planToLatLng(height, x, y) : [y, x]);
  const toSpot = (ll: L.LatLng) => (mode === 'plan' ? planSpot(site, ll.lat, ll.lng) : tileSpot(ll.lat, ll.lng));
  // The latest site, callbacks and conversions, for Leaflet's handlers (bound once per marker or map).
  const latest = useRef({ site, onPlace, onOffPlan, onSelect, toLatLng, toSpot });
  useEffect(() => {
    latest.current = { site, onPlace, onOffPlan, onSelect, toLatLng, toSpot };
  });

  // The markers' names where they cover no other name or marker and stay on the map (logic.ts labelSides); run after
  // the markers change and whenever the view moves or zooms. A name with no room shows when its marker is hovered.
  const declutter = useCallback(() => {
    if (!el.current) return;
    const frame = el.current.getBoundingClientRect();
    const shown = [...markers.current.values()]
      .map(({ marker }) => marker.getElement())
      .flatMap((pin) => {
        const dot = pin?.querySelector<HTMLElement>('.fa-map-dot');
        const label = pin?.querySelector<HTMLElement>('.fa-map-label');
        return dot && label ? [{ dot: dot.getBoundingClientRect(), width: label.offsetWidth, height: label.offsetHeight, label }] : [];
      });
    labelSides(shown, frame).forEach((side, i) => {
      const { label } = shown[i]!;
      label.classList.toggle('fa-map-label--left', side === 'left');
      label.classList.toggle('fa-map-label--hidden', side === 'hidden');
    });
  }, []);

  // One Leaflet map per site and drawing (plan, size, tile server).
  useEffect(() => {
    if (!el.current || mode === 'none') return;
    const map =
      mode === 'plan'
        ? L.map(el.current, { crs: L.CRS.Simple, minZoom: -6, maxZoom: 4, zoomSnap: 0.25, zoomDelta: 0.5, attributionControl: false })
        : L.map(el.current, { worldCopyJump: true });
    if (mode === 'plan') {
      const bounds = L.latLngBounds([0, 0], [site.image_height, site.image_width]);
      L.imageOverlay(site.image_url, bounds).addTo(map);
      map.fitBounds(bounds);
      map.setMaxBounds(bounds.pad(0.5));
    } else {
      L.tileLayer(site.tile_url, { maxZoom: 20 }).addTo(map);
      const points = latest.current.site.placements.map((p) => L.latLng(p.y, p.x));
      if (points.length) map.fitBounds(L.latLngBounds(points).pad(0.3), { maxZoom: 17 });
      else map.setView([20, 0], 2);
    }
    layerRef.current = L.layerGroup().addTo(map);
    map.on('zoomend moveend resize', declutter);
    map.on('popupclose', (e: L.PopupEvent) => {
      if (e.popup === popupRef.current) {
        popupRef.current = null;
        latest.current.onSelect(undefined);
      }
    });
    mapRef.current = map;
    setMapVersion((v) => v + 1);
    // A new width (a phone turned, the sidebar folded, the layout switched) shows the whole plan again.
    let width = el.current.clientWidth;
    const resize = new ResizeObserver(([entry]) => {
      map.invalidateSize();
      const w = entry?.contentRect.width ?? width;
      if (mode === 'plan' && Math.abs(w - width) > 40) map.fitBounds(L.latLngBounds([0, 0], [site.image_height, site.image_width]));
      width = w;
    });
    resize.observe(el.current);
    const all = markers.current;
    return () => {
      resize.disconnect();
      popupRef.current = null;
      map.remove();
      mapRef.current = null;
      layerRef.current = null;
      all.clear();
    };
  }, [mode, site.id, site.image_url, site.image_width, site.image_height, site.tile_url, declutter]);

  // Markers follow the placements: moved, recoloured, added and removed in place (the view stays where it is).
  useEffect(() => {
    const layer = layerRef.current;
    if (!layer) return;
    const seen = new Set<string>();
    for (const p of site.placements) {
      const key = itemKey(p);
      seen.add(key);
      const html = iconHtml(p.kind, alarmed.has(key) ? 'alarm' : p.state, p.name);
      const at = toLatLng(p.x, p.y);
      let entry = markers.current.get(key);
      if (!entry) {
        const marker = L.marker(at, {
          icon: L.divIcon({ className: 'fa-map-pin', html, iconSize: [18, 18], iconAnchor: [9, 9] }),
          draggable: canEdit,
          keyboard: true,
          title: p.name,
        });
        marker.on('click', () => latest.current.onSelect(key));
        marker.on('dragstart', () => dragging.current.add(key));
        marker.on('dragend', () => {
          dragging.current.delete(key);
          const item = latest.current.site.placements.find((x) => itemKey(x) === key);
          const spot = latest.current.toSpot(marker.getLatLng());
          if (!item) return;
          if (!spot) {
            marker.setLatLng(latest.current.toLatLng(item.x, item.y));
            latest.current.onOffPlan();
            return;
          }
          latest.current.onPlace(item.kind, item.ref_id, spot.x, spot.y);
        });
        marker.addTo(layer);
        entry = { marker, html };
        markers.current.set(key, entry);
      } else {
        const { marker } = entry;
        if (!dragging.current.has(key)) marker.setLatLng(at);
        if (entry.html !== html) {
          marker.setIcon(L.divIcon({ className: 'fa-map-pin', html, iconSize: [18, 18], iconAnchor: [9, 9] }));
          entry.html = html;
        }
      }
      if (canEdit) entry.marker.dragging?.enable();
      else entry.marker.dragging?.disable();
    }
    for (const [key, { marker }] of markers.current) {
      if (!seen.has(key)) {
        marker.remove();
        markers.current.delete(key);
      }
    }
    declutter();
  });

  // The selected item's popup, at its marker (the view pans to it when it is off screen).
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const entry = selected ? markers.current.get(selected) : undefined;
    if (!entry) {
      shownFor.current = undefined;
      if (popupRef.current) {
        const p = popupRef.current;
        popupRef.current = null;
        map.closePopup(p);
      }
      return;
    }
    const at = entry.marker.getLatLng();
    if (popupRef.current) popupRef.current.setLatLng(at);
    else {
      const p = L.popup({ offset: [0, -6], minWidth: 200, maxWidth: 280, autoPanPadding: [24, 24] })
        .setLatLng(at)
        .setContent(popupEl);
      popupRef.current = p;
      p.openOn(map);
    }
    // chosen from the list: bring it into view
    if (shownFor.current !== selected) map.panInside(at, { padding: [60, 60] });
    shownFor.current = selected;
  }, [selected, mapVersion, site.placements, popupEl]);
  // The popup resizes to what React rendered into it.
  useLayoutEffect(() => {
    popupRef.current?.update();
  });

  useImperativeHandle(
    ref,
    () => ({
      centre() {
        const map = mapRef.current;
        return map ? latest.current.toSpot(map.getCenter()) : undefined;
      },
    }),
    [],
  );

  const droppable = canEdit && mode !== 'none';
  const onDragOver = (e: DragEvent<HTMLDivElement>) => {
    if (droppable && e.dataTransfer.types.includes(DRAG_TYPE)) {
      e.preventDefault();
      e.dataTransfer.dropEffect = 'move';
    }
  };
  const onDrop = (e: DragEvent<HTMLDivElement>) => {
    const map = mapRef.current;
    if (!droppable || !map || !el.current) return;
    let item: { kind: PlacementKind; ref_id: number };
    try {
      item = JSON.parse(e.dataTransfer.getData(DRAG_TYPE)) as { kind: PlacementKind; ref_id: number };
    } catch {
      return;
    }
    e.preventDefault();
    // the point within the map's padding box (Leaflet's container point: its border left out)
    const spot = latest.current.toSpot(map.containerPointToLatLng(map.mouseEventToContainerPoint(e.nativeEvent)));
    if (!spot) latest.current.onOffPlan();
    else latest.current.onPlace(item.kind, item.ref_id, spot.x, spot.y);
  };

  return (
    <>
      <div ref={el} className="fa-map-canvas" data-testid="site-map" onDragOver={onDragOver} onDrop={onDrop} />
      {createPortal(popup, popupEl)}
    </>
  );
}
