//! Part specs: the common figures of every part (power, price, size, sources) and what each kind adds (GPU, server,
//! NIC, switch, storage, rack, cable, PDU, CDU, patch panel). A design carries the specs of the parts it uses; the
//! built-in catalog (`catalog`) is a set of them.

use super::{PartId, PcieLink, Protocol};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One part: common figures plus what its kind adds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Part {
    /// Display name, e.g. "NVIDIA H100 SXM5 80GB".
    pub name: String,
    /// The maker, e.g. "NVIDIA": searched in the palette, listed in the BOM, NetBox's manufacturer on export.
    pub vendor: String,
    /// Height in rack units (0 for parts that go in slots, and for side-mounted PDUs).
    pub height_u: u16,
    /// Maximum power draw, watts (for servers: the chassis without the GPUs and NICs in its slots).
    pub power_w: f64,
    /// Weight, kilograms (for servers: as shipped, including its standard GPUs and NICs).
    pub weight_kg: f64,
    /// Price, USD (for servers: the chassis without the GPUs and NICs in its slots).
    pub price_usd: f64,
    /// Where each figure comes from, keyed by field name ("power_w", "gpu.tdp_w", ...).
    pub sources: BTreeMap<String, String>,
    /// Needs direct liquid cooling (a rack-scale system such as GB200 NVL72): an air-cooled rack holding it is an
    /// error finding.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub liquid_cooled: bool,
    /// Weeks from order to delivery, when known (its source under "lead_time_weeks").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lead_time_weeks: Option<f64>,
    /// The vendor's orderable part number, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part_number: Option<String>,
    /// What kind of part this is and its kind-specific figures.
    pub kind: PartKind,
    /// Where the part came from in NetBox, for a part imported from a NetBox device type: its slug and its
    /// interface names, so that a design exported back to NetBox names the device type and ports NetBox has.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub netbox: Option<NetboxOrigin>,
    /// In a design's copy: the figures this design overrides ("price_usd", "power_w"), each with the catalog's
    /// figure and source, so reports can mark them overridden. Empty in catalogs.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<String, Override>,
}

/// A part's NetBox device type: what a part imported from NetBox keeps so that it goes back where it came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct NetboxOrigin {
    /// The device type's slug in NetBox.
    pub slug: String,
    /// Its manufacturer, as NetBox names it.
    pub manufacturer: String,
    /// Its model, as NetBox names it.
    pub model: String,
    /// The NetBox interface behind each of the part's ports, by Racksmith port name ("p1" -> "P0.0").
    pub ports: BTreeMap<String, String>,
    /// Every interface of the device type as NetBox lists it (data and management), for writing it back.
    pub interfaces: Vec<NetboxInterface>,
}

/// One interface of a NetBox device type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct NetboxInterface {
    /// Name, as NetBox writes it ("Ethernet1/1", "P0.0", "swp3").
    pub name: String,
    /// NetBox interface type ("400gbase-x-osfp", "infiniband-ndr").
    #[serde(rename = "type")]
    pub kind: String,
    /// NetBox's `mgmt_only` flag: a management interface, which the importer never turns into a data port.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub mgmt_only: bool,
}

/// A figure a design overrides: what the catalog said.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct Override {
    /// The catalog's figure.
    pub catalog: f64,
    /// The catalog's source for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub catalog_source: Option<String>,
}

impl Default for Part {
    fn default() -> Self {
        Self {
            name: String::new(),
            vendor: String::new(),
            height_u: 0,
            power_w: 0.0,
            weight_kg: 0.0,
            price_usd: 0.0,
            sources: BTreeMap::new(),
            liquid_cooled: false,
            lead_time_weeks: None,
            part_number: None,
            kind: PartKind::PatchPanel(PatchPanelSpec::default()),
            netbox: None,
            overrides: BTreeMap::new(),
        }
    }
}

impl Part {
    /// The source recorded for a figure, if any.
    pub fn source(&self, field: &str) -> Option<&str> {
        self.sources.get(field).map(String::as_str)
    }
}

/// The groups parts are listed under in the palette and the part library, in palette order ([`Category::ALL`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Category {
    /// Servers, with or without GPU slots.
    Server,
    /// GPUs, which go in servers' GPU slots.
    Gpu,
    /// NICs and DPUs.
    Nic,
    /// Network switches of every protocol.
    Switch,
    /// Storage appliances and storage servers.
    Storage,
    /// Rack frames: what a rack is made from, never mounted in one as a device.
    Rack,
    /// Cables and transceivers.
    Cable,
    /// PDUs and patch panels.
    Accessory,
}

impl Category {
    /// All categories in palette order.
    pub const ALL: [Category; 8] = [
        Category::Server,
        Category::Gpu,
        Category::Nic,
        Category::Switch,
        Category::Storage,
        Category::Rack,
        Category::Cable,
        Category::Accessory,
    ];

    /// The category's heading in the palette and in messages, e.g. "NICs & DPUs".
    pub fn label(self) -> &'static str {
        match self {
            Category::Server => "Servers",
            Category::Gpu => "GPUs",
            Category::Nic => "NICs & DPUs",
            Category::Switch => "Switches",
            Category::Storage => "Storage",
            Category::Rack => "Racks",
            Category::Cable => "Cables & optics",
            Category::Accessory => "PDUs & panels",
        }
    }

    /// The category's colour, sRGB. The one colour table: the canvas, the palette and every drawing (rack and
    /// fabric SVG and PNG) take their fills from it, and the drawings' legend is generated from it.
    pub fn rgb(self) -> [u8; 3] {
        match self {
            Category::Server => [46, 125, 200],
            Category::Gpu => [118, 185, 0],
            Category::Nic => [150, 110, 200],
            Category::Switch => [220, 140, 40],
            Category::Storage => [40, 160, 140],
            Category::Rack => [120, 120, 120],
            Category::Cable => [200, 90, 120],
            Category::Accessory => [140, 140, 100],
        }
    }

    /// The fill of a device box of the category on the dark canvas and in the drawings: the colour 35% of the
    /// way to black, behind white labels at 5.2:1 or better (WCAG AA; `app::theme` tests the canvas's).
    pub fn dark_fill_rgb(self) -> [u8; 3] {
        self.rgb().map(|c| (f32::from(c) * 0.65).round() as u8)
    }

    /// Colour names in a drawing's legend: "blue", "orange", ... (of [`Category::rgb`]).
    pub fn colour_name(self) -> &'static str {
        match self {
            Category::Server => "blue",
            Category::Gpu => "green",
            Category::Nic => "purple",
            Category::Switch => "orange",
            Category::Storage => "teal",
            Category::Rack => "grey",
            Category::Cable => "rose",
            Category::Accessory => "olive",
        }
    }
}

/// What kind of part this is, with the figures only that kind has; files write the variant (`kind: Gpu((...))`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PartKind {
    /// A GPU that goes in a server's GPU slot.
    Gpu(GpuSpec),
    /// A server with GPU and NIC slots.
    Server(ServerSpec),
    /// A network adapter or DPU that goes in a NIC slot.
    Nic(NicSpec),
    /// A network switch.
    Switch(SwitchSpec),
    /// A storage appliance or server.
    Storage(StorageSpec),
    /// A rack frame.
    Rack(RackSpec),
    /// A cable or transceiver kit for one link.
    Cable(CableSpec),
    /// A transceiver: one at each end of a fibre.
    Transceiver(TransceiverSpec),
    /// A power distribution unit.
    Pdu(PduSpec),
    /// A patch panel or blanking/cable-management unit.
    PatchPanel(PatchPanelSpec),
    /// A coolant distribution unit: moves the heat of liquid-cooled racks into the facility water.
    Cdu(CduSpec),
}

impl PartKind {
    /// The palette category the part is listed under (PDUs, patch panels and CDUs share Accessory).
    pub fn category(&self) -> Category {
        match self {
            PartKind::Gpu(_) => Category::Gpu,
            PartKind::Server(_) => Category::Server,
            PartKind::Nic(_) => Category::Nic,
            PartKind::Switch(_) => Category::Switch,
            PartKind::Storage(_) => Category::Storage,
            PartKind::Rack(_) => Category::Rack,
            PartKind::Cable(_) | PartKind::Transceiver(_) => Category::Cable,
            PartKind::Pdu(_) | PartKind::PatchPanel(_) | PartKind::Cdu(_) => Category::Accessory,
        }
    }

    /// Whether the part mounts in a rack.
    pub fn is_rack_mounted(&self) -> bool {
        matches!(
            self,
            PartKind::Server(_)
                | PartKind::Switch(_)
                | PartKind::Storage(_)
                | PartKind::Pdu(_)
                | PartKind::PatchPanel(_)
                | PartKind::Cdu(_)
        )
    }
}

/// GPU form factor, which decides the slot it fits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum FormFactor {
    /// SXM module on an HGX baseboard.
    #[default]
    Sxm,
    /// PCIe add-in card.
    Pcie,
}

/// Figures of a GPU that goes in a server's GPU slot: memory, NVLink, host link, throughput and cloud price.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GpuSpec {
    /// Slot type it needs.
    pub form: FormFactor,
    /// Memory on the GPU (HBM or GDDR), GB; training sizing and the parallel layout fit the model states in it.
    pub memory_gb: f64,
    /// Memory bandwidth, GB/s.
    #[serde(alias = "memory_bw_gbs")]
    pub memory_bw_gbyte_s: f64,
    /// NVLink bandwidth per GPU per direction, GB/s (0 when the GPU has none).
    #[serde(alias = "nvlink_gbs")]
    pub nvlink_gbyte_s: f64,
    /// NVLink generation (0 when none).
    pub nvlink_generation: u8,
    /// The GPU's own PCIe link; its slot's link caps it when narrower.
    pub pcie: PcieLink,
    /// Network bandwidth per GPU the vendor's reference architecture provides, Gb/s.
    pub reference_network_gbps: f64,
    /// A typical cloud on-demand price for this GPU, USD per GPU-hour.
    pub cloud_usd_per_hour: f64,
    /// Peak dense BF16 tensor throughput, TFLOPS (training time estimates).
    pub bf16_tflops: f64,
}

impl Default for GpuSpec {
    fn default() -> Self {
        Self {
            form: FormFactor::Sxm,
            memory_gb: 0.0,
            memory_bw_gbyte_s: 0.0,
            nvlink_gbyte_s: 0.0,
            nvlink_generation: 0,
            pcie: PcieLink {
                generation: 4,
                lanes: 16,
            },
            reference_network_gbps: 0.0,
            cloud_usd_per_hour: 0.0,
            bf16_tflops: 0.0,
        }
    }
}

/// Where a slot hangs in a server's PCIe tree.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct SlotSpec {
    /// Parent in the PCIe tree: "cpu0", "cpu1" or the name of a PCIe switch.
    pub parent: String,
    /// The slot's own link to its parent.
    pub link: Option<PcieLink>,
}

/// What a NIC slot's ports are cabled to.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
pub enum NicRole {
    /// GPU (east-west, compute fabric) traffic.
    #[default]
    Compute,
    /// Storage and in-band management traffic.
    Storage,
    /// Out-of-band management (the BMC network): no traffic pattern uses it, and an uncabled one raises no finding.
    Management,
}

/// A NIC slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct NicSlotSpec {
    /// Position in the PCIe tree.
    pub slot: SlotSpec,
    /// What it is for.
    pub role: NicRole,
}

/// A GPU slot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct GpuSlotSpec {
    /// Form factor the slot takes.
    pub form: FormFactor,
    /// Position in the PCIe tree.
    pub slot: SlotSpec,
}

/// A PCIe switch inside a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct PcieSwitchSpec {
    /// Name other slots refer to as their parent, e.g. "psw0".
    pub name: String,
    /// Upstream parent: a CPU ("cpu0") or another switch.
    pub parent: String,
    /// The switch's PCIe link to its parent; None: the uplink is not modelled as a limit.
    pub uplink: Option<PcieLink>,
}

/// The NVLink domain of a server.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct NvLinkDomainSpec {
    /// NVSwitch chips on the baseboard (0: GPUs are meshed directly or bridged in pairs).
    pub nvswitches: u8,
    /// Port-to-port latency of one NVSwitch hop, ns.
    pub switch_latency_ns: f64,
    /// GPUs per NVLink island (8 for an HGX board, 2 for bridged PCIe pairs).
    pub island_size: u8,
    /// The NVSwitches reduce in the switch (NVLink SHARP, NVSwitch gen3 and later), so NCCL can run its NVLS
    /// algorithms. Absent in older files: false.
    pub nvls: bool,
}

/// The host CPU's maker, which sets NCCL's network post overhead (`getNetOverhead` in NVIDIA/nccl
/// `src/graph/tuning.cc`: 1 us Intel, 2 us AMD) and its LL bandwidth cap across nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum CpuVendor {
    /// Not stated: NCCL's default (as Intel).
    #[default]
    Unknown,
    /// Intel Xeon: NCCL's 1 us network post overhead.
    Intel,
    /// AMD EPYC: NCCL's 2 us network post overhead and its AMD LL bandwidth cap across nodes.
    Amd,
    /// Arm (NVIDIA Grace).
    Arm,
}

/// Figures of a server: CPU sockets, PCIe tree, GPU and NIC slots, NVLink domain and what a new one comes with.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct ServerSpec {
    /// CPU sockets (root complexes "cpu0", "cpu1", ...).
    pub cpu_sockets: u8,
    /// Bandwidth between sockets per direction, GB/s (UPI / Infinity Fabric).
    #[serde(alias = "inter_socket_gbs")]
    pub inter_socket_gbyte_s: f64,
    /// PCIe switches in the tree.
    pub pcie_switches: Vec<PcieSwitchSpec>,
    /// The GPU slots; a device's `gpus` map is keyed by the 0-based index in this list.
    pub gpu_slots: Vec<GpuSlotSpec>,
    /// The NIC slots; a device's `nics` map and its port names (`nic0/p1`) use the 0-based index in this list.
    pub nic_slots: Vec<NicSlotSpec>,
    /// NVLink domain, if the board has one.
    pub nvlink: Option<NvLinkDomainSpec>,
    /// Host CPU maker, which sets NCCL's network post overhead (1 us Intel, 2 us AMD). Absent in older files:
    /// Unknown (treated as NCCL's default).
    pub cpu_vendor: CpuVendor,
    /// GPU part installed in every GPU slot when the server is added (integrated systems such as DGX).
    pub default_gpu: Option<PartId>,
    /// NIC part per slot role installed when the server is added (written `{"Compute": "cx7-ndr"}`).
    #[serde(with = "nic_role_keys")]
    pub default_nics: BTreeMap<NicRole, PartId>,
    /// Compute NIC slots that share one transceiver cage (2: a twin-port OSFP cage serves two single-port NICs,
    /// as DGX H100's four cages serve its eight ConnectX-7); 0 or 1: a cage per NIC.
    #[serde(skip_serializing_if = "is_zero_u8")]
    pub nics_per_cage: u8,
}

fn is_zero_u8(x: &u8) -> bool {
    *x == 0
}

impl NicRole {
    /// Every role, in file order.
    pub const ALL: [NicRole; 3] = [NicRole::Compute, NicRole::Storage, NicRole::Management];

    /// The role's name as files write it.
    pub fn name(self) -> &'static str {
        match self {
            NicRole::Compute => "Compute",
            NicRole::Storage => "Storage",
            NicRole::Management => "Management",
        }
    }
}

/// `default_nics` keyed by role, written with the role names as strings (as files always have).
mod nic_role_keys {
    use super::{NicRole, PartId};
    use serde::{Deserialize, Deserializer, Serializer, de::Error as _};
    use std::collections::BTreeMap;

    pub fn serialize<S: Serializer>(
        map: &BTreeMap<NicRole, PartId>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        s.collect_map(map.iter().map(|(k, v)| (k.name(), v)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<BTreeMap<NicRole, PartId>, D::Error> {
        let raw = BTreeMap::<String, PartId>::deserialize(d)?;
        raw.into_iter()
            .map(|(k, v)| {
                NicRole::ALL
                    .into_iter()
                    .find(|r| r.name() == k)
                    .map(|r| (r, v))
                    .ok_or_else(|| {
                        D::Error::custom(format!(
                            "unknown NIC role \"{k}\" in default_nics: expected Compute, Storage or Management"
                        ))
                    })
            })
            .collect()
    }
}

/// Figures of a network adapter or DPU that goes in a server's NIC slot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NicSpec {
    /// Network ports on the adapter, named `nicS/p1` to `nicS/pN` on the server that holds it in slot S.
    pub ports: u16,
    /// Fastest rate per port, Gb/s.
    pub port_gbps: f64,
    /// Protocols the ports speak.
    pub protocols: Vec<Protocol>,
    /// The adapter's PCIe link; its slot's link caps it when narrower.
    pub host: PcieLink,
    /// Adapter latency added to a message, ns.
    pub latency_ns: f64,
}

impl Default for NicSpec {
    fn default() -> Self {
        Self {
            ports: 1,
            port_gbps: 100.0,
            protocols: vec![Protocol::Ethernet],
            host: PcieLink {
                generation: 4,
                lanes: 16,
            },
            latency_ns: 500.0,
        }
    }
}

/// Figures of a network switch: its ports and their rates, latency and in-network reduction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SwitchSpec {
    /// Ports at `port_gbps`.
    pub ports: u16,
    /// Rate per port, Gb/s.
    pub port_gbps: f64,
    /// Protocols the ports speak.
    pub protocols: Vec<Protocol>,
    /// Port-to-port latency, ns.
    pub latency_ns: f64,
    /// Cut-through forwarding (serialisation paid once per path, not per hop).
    pub cut_through: bool,
    /// Extra uplink ports ("u1", "u2", ...) at `uplink_gbps`, for access switches with faster uplinks.
    pub uplink_ports: u16,
    /// Rate per uplink port, Gb/s.
    pub uplink_gbps: f64,
    /// The switch reduces in the network (InfiniBand SHARP), so NCCL can run CollNet with the SHARP plugin.
    /// Absent in older files: false.
    pub sharp: bool,
    /// Ports that share one transceiver cage (2: twin-port OSFP cages, as the QM9700's 32 cages for 64 NDR ports;
    /// port pN is in cage (N - 1) / 2); 0 or 1: a cage per port.
    #[serde(skip_serializing_if = "is_zero_u8")]
    pub ports_per_cage: u8,
    /// Breakouts a port can run besides its native mode, as the logical ports it becomes (2: two ports at half its
    /// rate, as an NDR port on a 1:2 splitter runs as two NDR200 ports); empty: none. A device picks one per port
    /// ([`crate::model::Breakout`]); the ports of one cage share it (docs/analysis.md, "Cages and breakouts").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub breakouts: Vec<u8>,
    /// Most logical ports the switch runs in all, whatever its breakouts (Spectrum-4 SN5600: 256); 0: no cap
    /// beyond the ports times their largest breakout.
    #[serde(skip_serializing_if = "is_zero_u16")]
    pub max_logical_ports: u16,
    /// Power class of one cage, W: the most a transceiver in it may draw (QM9700 17 W, SN5600 18 W); 0: not stated.
    #[serde(skip_serializing_if = "is_zero_f64")]
    pub cage_power_w: f64,
    /// The plug form the cages take (a transceiver of another form does not fit); None: not stated, any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cage_form: Option<PlugForm>,
}

fn is_zero_u16(x: &u16) -> bool {
    *x == 0
}

fn is_zero_f64(x: &f64) -> bool {
    *x == 0.0
}

impl Default for SwitchSpec {
    fn default() -> Self {
        Self {
            ports: 48,
            port_gbps: 100.0,
            protocols: vec![Protocol::Ethernet],
            latency_ns: 500.0,
            cut_through: true,
            uplink_ports: 0,
            uplink_gbps: 0.0,
            sharp: false,
            ports_per_cage: 0,
            breakouts: Vec::new(),
            max_logical_ports: 0,
            cage_power_w: 0.0,
            cage_form: None,
        }
    }
}

/// Figures of a storage appliance or storage server: throughput, capacity and network ports.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StorageSpec {
    /// Sustained read throughput the appliance delivers, GB/s.
    #[serde(alias = "read_gbs")]
    pub read_gbyte_s: f64,
    /// Sustained write throughput, GB/s.
    #[serde(alias = "write_gbs")]
    pub write_gbyte_s: f64,
    /// Usable capacity, TB.
    pub capacity_tb: f64,
    /// Network ports, named `p1` to `pN`, each at `port_gbps`.
    pub ports: u16,
    /// Rate per port, Gb/s.
    pub port_gbps: f64,
    /// Protocols the ports speak.
    pub protocols: Vec<Protocol>,
}

impl Default for StorageSpec {
    fn default() -> Self {
        Self {
            read_gbyte_s: 10.0,
            write_gbyte_s: 5.0,
            capacity_tb: 100.0,
            ports: 2,
            port_gbps: 100.0,
            protocols: vec![Protocol::Ethernet],
        }
    }
}

/// Figures of a rack frame; a new rack of this part copies its height, power budget and weight rating.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RackSpec {
    /// Mounting height in rack units.
    pub units: u16,
    /// Default power budget, W.
    pub power_budget_w: f64,
    /// Static load rating, kg.
    pub max_weight_kg: f64,
}

impl Default for RackSpec {
    fn default() -> Self {
        Self {
            units: 42,
            power_budget_w: 15_000.0,
            max_weight_kg: 1_000.0,
        }
    }
}

/// Cable or transceiver kit figures (power and price cover both ends).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CableSpec {
    /// Protocol it carries.
    pub protocol: Protocol,
    /// Rate it carries, Gb/s: validation refuses a faster link; a new link picks a cable of exactly its rate.
    pub gbps: f64,
    /// Longest supported length, m.
    pub max_length_m: f64,
    /// Whether it is optical (transceivers) rather than copper.
    pub optical: bool,
    /// A fibre that needs a transceiver at each end (listed on its own, [`TransceiverSpec`]); None: copper, or a
    /// kit whose price and power include both ends' optics.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fibre: Option<Fibre>,
    /// The lengths it is sold in, m, shortest first: a run is ordered at the next one up. Empty: any length up to
    /// `max_length_m`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stock_lengths_m: Vec<f64>,
    /// Legs of a splitter cable (2: one cage's lanes to two ports, as the NVIDIA MCP7Y00 800G to 2x400G); 0 or 1:
    /// a straight cable. Each leg is a link of its own at the cable's rate (`gbps`), exactly.
    #[serde(skip_serializing_if = "is_zero_u8")]
    pub legs: u8,
}

/// The fibre a cable is and a transceiver needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Fibre {
    /// Multimode (OM3/OM4), short reach (NDR SR4/SR8: 50 m).
    Multimode,
    /// Single-mode (OS2), long reach (NDR DR4/DR8: 100 to 500 m).
    SingleMode,
}

/// The plug a transceiver has and a cage takes.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
pub enum PlugForm {
    /// OSFP (Quantum-2 and Spectrum-4 switches, ConnectX-7, DGX H100 cages).
    #[default]
    Osfp,
    /// QSFP112.
    Qsfp112,
    /// QSFP-DD.
    QsfpDd,
    /// QSFP56.
    Qsfp56,
}

/// A plug form factor as messages and reports write it ("OSFP", "QSFP-DD").
pub fn plug_name(form: PlugForm) -> &'static str {
    match form {
        PlugForm::Osfp => "OSFP",
        PlugForm::Qsfp112 => "QSFP112",
        PlugForm::QsfpDd => "QSFP-DD",
        PlugForm::Qsfp56 => "QSFP56",
    }
}

/// The top of a transceiver: finned for switch cages (which have no riding heat sink), flat for NICs and DGX cages.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, Default,
)]
pub enum Top {
    /// Flat top (a riding heat sink in the host cools it).
    #[default]
    Flat,
    /// Finned top (switch cages).
    Finned,
}

/// Figures of a transceiver: one plugs into a cage at each end of a fibre; a twin-port one carries two links of
/// its cage. Power and price are for one transceiver.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TransceiverSpec {
    /// Protocol it carries.
    pub protocol: Protocol,
    /// Plug form factor.
    pub form: PlugForm,
    /// Links it carries: 1 (single-port) or 2 (twin-port).
    pub ports: u8,
    /// Flat or finned top.
    pub top: Top,
    /// Optical lanes.
    pub lanes: u8,
    /// Rate per lane, Gb/s (a port runs `lanes / ports x lane_gbps`).
    pub lane_gbps: f64,
    /// The fibre it needs.
    pub fibre: Fibre,
    /// Longest fibre it reaches, m.
    pub reach_m: f64,
}

impl TransceiverSpec {
    /// Rate of each port, Gb/s.
    pub fn port_gbps(&self) -> f64 {
        f64::from(self.lanes) / f64::from(self.ports.max(1)) * self.lane_gbps
    }
}

impl Default for TransceiverSpec {
    fn default() -> Self {
        Self {
            protocol: Protocol::InfiniBand,
            form: PlugForm::Osfp,
            ports: 1,
            top: Top::Flat,
            lanes: 4,
            lane_gbps: 100.0,
            fibre: Fibre::Multimode,
            reach_m: 50.0,
        }
    }
}

impl Default for CableSpec {
    fn default() -> Self {
        Self {
            protocol: Protocol::Ethernet,
            gbps: 100.0,
            max_length_m: 3.0,
            optical: false,
            fibre: None,
            stock_lengths_m: Vec::new(),
            legs: 0,
        }
    }
}

/// Figures of a power distribution unit; its capacity adds to its rack's PDU capacity.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct PduSpec {
    /// Rated capacity, W.
    pub capacity_w: f64,
    /// Outlets for devices' plugs (e.g. 36 on a 0U PDU); listed, not checked against the devices plugged in.
    pub outlets: u16,
}

/// Coolant distribution unit figures (docs/analysis.md, "Cooling"). An in-rack CDU mounts in the racks it serves;
/// an in-row CDU is a cabinet of its own, modelled as a full-height device in a rack position of the row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct CduSpec {
    /// Heat it can move from the coolant loop to the facility water, kW.
    pub capacity_kw: f64,
    /// Coolant flow its pumps deliver, litres per minute.
    pub flow_l_min: f64,
}

/// Patch panel figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(default, deny_unknown_fields)]
pub struct PatchPanelSpec {
    /// Ports on the panel.
    pub ports: u16,
}
