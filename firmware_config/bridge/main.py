# Runs at boot on the Pico.  Copy this folder's .py files plus hardware/rc522/pcd.py, hardware/ntag.py and
# hardware/bridge/protocol.py onto the board (docs/hardware/bridge.md shows the mpremote commands).
import bridge

bridge.main()
