// The offline drawing: used when no street map is configured, while one loads, and whenever it cannot be drawn (no
// WebGL, its style or script unreachable; always in tests). The same pins and lines on a projected grid, no streets.
import { useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { densityRadius, densityTitle, densityView } from './density';
import { fitProjection, gridLines } from './projection';
import { useBusinessDefaults } from '../../app/businessDefaults';
import { PLACE_EDGE_COLOR, PLACE_SQUARE, TEARDROP_PATH, pinShape } from './pinIcon';
import type { DrawnLine, DrawnPin } from '../../lib/map/mapModel';
import type { LatLng } from '../../lib/map/mapTypes';

const DEFAULT_VIEW_WIDTH = 640;
/** Room around the drawn points: a pin stands 28 px above its point. */
const PADDING = 32;

/** The element's rendered width, so the projection fits the box the map really has (no cropping). */
function useMeasuredWidth(fallback: number) {
  const ref = useRef<SVGSVGElement>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const measured = Math.round(entry.contentRect.width);
      if (measured > 0) setWidth(measured);
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

export interface SvgMapProps {
  pins: readonly DrawnPin[];
  lines: readonly DrawnLine[];
  fitPoints: readonly LatLng[];
  height: number;
  /** Keep the first points' frame (MapFit 'first'), so a placed pin lands where it was clicked. */
  keepFirstFrame?: boolean;
  onPinClick?: (pin: DrawnPin) => void;
  /** A click on the drawing places the movable pin there. */
  onPlace?: (point: LatLng) => void;
  /** Gathers crowded single pins into counted circles (see density.ts). */
  density?: boolean;
}

export function SvgMap({ pins: allPins, lines, fitPoints, height, keepFirstFrame = false, onPinClick, onPlace, density = false }: SvgMapProps) {
  const clipId = useId();
  const { ref, width: viewWidth } = useMeasuredWidth(DEFAULT_VIEW_WIDTH);
  const firstFrame = useRef<readonly LatLng[] | null>(null);
  if (keepFirstFrame && firstFrame.current === null && fitPoints.length > 0) firstFrame.current = fitPoints;
  const frame = keepFirstFrame && firstFrame.current ? firstFrame.current : fitPoints;
  const { mapCenter } = useBusinessDefaults();
  const { project, unproject, bounds } = fitProjection(frame, viewWidth, height, PADDING, mapCenter);
  const latLines = gridLines(bounds.south, bounds.north);
  const lngLines = gridLines(bounds.west, bounds.east);
  const { pins, cells } = density ? densityView(allPins, project) : { pins: allPins, cells: [] };
  const label = allPins.length === 1 ? `Map showing ${allPins[0].title || 'one location'}` : `Map showing ${allPins.length} locations`;

  const place = (event: MouseEvent<SVGSVGElement>) => {
    if (!onPlace) return;
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return;
    onPlace(unproject({ x: ((event.clientX - box.left) * viewWidth) / box.width, y: ((event.clientY - box.top) * height) / box.height }));
  };

  return (
    <svg
      ref={ref}
      role="img"
      aria-label={label}
      data-testid="svg-map"
      data-marker-count={allPins.length}
      viewBox={`0 0 ${viewWidth} ${height}`}
      preserveAspectRatio="xMidYMid meet"
      className={`block w-full rounded-lg border border-slate-200 dark:border-slate-700 ${onPlace ? 'cursor-crosshair' : ''}`}
      style={{ height }}
      onClick={onPlace ? place : undefined}
    >
      <defs>
        <clipPath id={clipId}>
          <rect width={viewWidth} height={height} />
        </clipPath>
      </defs>
      <g clipPath={`url(#${clipId})`}>
        <rect width={viewWidth} height={height} className="fill-emerald-50 dark:fill-slate-800" />
        {latLines.map((lat) => {
          const { y } = project({ lat, lng: bounds.west });
          return <line key={`lat${lat}`} x1={0} x2={viewWidth} y1={y} y2={y} className="stroke-emerald-200 dark:stroke-slate-700" strokeWidth={1} />;
        })}
        {lngLines.map((lng) => {
          const { x } = project({ lat: bounds.south, lng });
          return <line key={`lng${lng}`} x1={x} x2={x} y1={0} y2={height} className="stroke-emerald-200 dark:stroke-slate-700" strokeWidth={1} />;
        })}
        {lines.map((line) => (
          <polyline
            key={line.key}
            data-testid="map-route"
            points={line.points.map((point) => {
              const { x, y } = project(point);
              return `${x.toFixed(1)},${y.toFixed(1)}`;
            }).join(' ')}
            fill="none"
            stroke={line.color}
            strokeWidth={3}
            strokeLinejoin="round"
            strokeOpacity={0.8}
          >
            <title>{line.title}</title>
          </polyline>
        ))}
        {pins.map((pin) => {
          const { x, y } = project(pin);
          const shape = pinShape(pin);
          const clickable = onPinClick !== undefined;
          return (
            <g
              key={pin.key}
              data-testid="map-marker"
              data-kind={pin.kind}
              transform={`translate(${(x + pin.offset[0]).toFixed(1)} ${(y + pin.offset[1]).toFixed(1)})`}
              onClick={clickable ? (event) => { event.stopPropagation(); onPinClick(pin); } : undefined}
              className={clickable ? 'cursor-pointer' : undefined}
            >
              {pin.title && <title>{pin.title}</title>}
              {shape.isPlace ? (
                <rect x={PLACE_SQUARE.x} y={PLACE_SQUARE.y} width={PLACE_SQUARE.size} height={PLACE_SQUARE.size} rx={PLACE_SQUARE.radius} fill={pin.color} stroke={PLACE_EDGE_COLOR} strokeWidth={2} />
              ) : (
                <path d={TEARDROP_PATH} fill={pin.color} stroke="white" strokeWidth={1.5} />
              )}
              {pin.label ? (
                <text y={shape.textY} textAnchor="middle" fontSize={shape.fontSize} fontWeight={600} fill="white">
                  {pin.label}
                </text>
              ) : (
                !shape.isPlace && <circle cy={-17} r={3} fill="white" />
              )}
            </g>
          );
        })}
        {cells.map((cell) => {
          const { x, y } = project(cell);
          return (
            <g key={cell.key} data-testid="map-density-cell" data-count={cell.count} transform={`translate(${x.toFixed(1)} ${y.toFixed(1)})`}>
              <title>{densityTitle(cell)}</title>
              <circle r={densityRadius(cell.count)} fill={cell.color} fillOpacity={0.75} stroke="white" strokeWidth={2} />
              <text y={4} textAnchor="middle" fontSize={11} fontWeight={600} fill="white">{cell.count}</text>
            </g>
          );
        })}
      </g>
    </svg>
  );
}
